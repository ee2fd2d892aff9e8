// OpenAI chat transcripts with tool calls, one per line:
//   {"messages": [{role, content, tool_calls?, tool_call_id?}...], "metadata"?: {env_id|envId, d|difficulty, seed, reward, player}}
// user → customer message; assistant → agent message + its tool calls (results from the
// matching "tool" messages); an assistant tool call named "answer" carries the final answer.
// With env, d and seed in the metadata the actions are replayed and re-scored.
import { z } from 'zod';
import { axesFor } from '@/server/engine/difficulty';
import { ENV_IDS, type Action, type EnvId, type EpisodeEvent } from '@/server/engine/types';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeRecord } from './insert';
import { rescoreByReplay, unscored } from './rescore';

const toolCallSchema = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
const messageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z
    .union([z.string(), z.null(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose())])
    .optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});
export const chatLineSchema = z.object({
  messages: z.array(messageSchema).min(1),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const text = (c: z.infer<typeof messageSchema>['content']): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p.text ?? '').join('') : '';

const PROMPT_CAP = 50_000;

export function chatToRecord(
  line: z.infer<typeof chatLineSchema>,
  getCatalog: (id: string) => Catalog,
  defaultCatalogId: string,
  runLabel: string | null,
): EpisodeRecord {
  const meta = line.metadata ?? {};
  const envRaw = meta.env_id ?? meta.envId ?? meta.env;
  if (!(ENV_IDS as readonly string[]).includes(String(envRaw)))
    throw new Error(
      `metadata.env_id must name the environment (one of ${ENV_IDS.join(', ')}); got ${envRaw === undefined ? 'nothing' : JSON.stringify(envRaw)}`,
    );
  const envId = envRaw as EnvId;
  const dRaw = meta.d ?? meta.difficulty;
  if (!Number.isInteger(dRaw) || (dRaw as number) < 0)
    throw new Error(
      `metadata.d must be the difficulty (an integer ≥ 0); got ${dRaw === undefined ? 'nothing' : JSON.stringify(dRaw)}`,
    );
  const d = dRaw as number;
  const seed = Number.isInteger(meta.seed) ? Number(meta.seed) : null;
  const catalogId =
    typeof meta.catalog_id === 'string'
      ? meta.catalog_id
      : typeof meta.catalogId === 'string'
        ? meta.catalogId
        : defaultCatalogId;

  const events: EpisodeEvent[] = [];
  const actions: Action[] = [];
  const prompts: string[] = [];
  const results = new Map<string, string>();
  for (const m of line.messages) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, text(m.content));
  let turn = 0;
  let answer: Action['answer'] = null;
  line.messages.forEach((m, idx) => {
    if (m.role === 'user')
      events.push({ kind: 'customer_message', turn, text: text(m.content), act: turn === 0 ? 'opening' : 'continue' });
    if (m.role !== 'assistant') return;
    turn++;
    const prompt = JSON.stringify(line.messages.slice(0, idx));
    prompts.push(
      prompt.length > PROMPT_CAP
        ? `${prompt.slice(0, PROMPT_CAP)}… (${prompt.length - PROMPT_CAP} more characters)`
        : prompt,
    );
    events.push({ kind: 'agent_message', turn, text: text(m.content) });
    const calls: Action['tool_calls'] = [];
    for (const [index, c] of (m.tool_calls ?? []).entries()) {
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(c.function.arguments || '{}') as Record<string, unknown>;
      } catch {
        throw new Error(`message ${idx + 1}: tool call "${c.function.name}" has arguments that are not JSON`);
      }
      if (c.function.name === 'answer') {
        answer = { env: envId, done: true, ...args };
        events.push({ kind: 'answer', turn, answer });
        continue;
      }
      calls.push({ name: c.function.name, args });
      const raw = c.id ? results.get(c.id) : undefined;
      let result: unknown = raw ?? null;
      try {
        if (raw !== undefined) result = JSON.parse(raw);
      } catch {
        /* a plain-text tool result stays text */
      }
      events.push({
        kind: 'tool_call',
        turn,
        index,
        name: c.function.name,
        args,
        result,
        error: raw === undefined ? 'no tool message answered this call' : null,
      });
    }
    actions.push({ assistant_message: text(m.content), tool_calls: calls, answer });
  });
  if (turn === 0) throw new Error('the transcript has no assistant message');
  const reward = typeof meta.reward === 'number' ? meta.reward : null;
  const canReplay = seed !== null;
  let catalog: Catalog | null = null;
  if (canReplay) {
    try {
      catalog = getCatalog(catalogId);
    } catch {
      catalog = null;
    }
  }
  const rescored =
    canReplay && catalog
      ? rescoreByReplay({ envId, d, seed: seed! }, actions, catalog, null)
      : unscored(
          canReplay
            ? `catalog "${catalogId}" is not available here`
            : 'the metadata has no seed, so the engine cannot replay it',
        );
  if (rescored.breakdown) {
    events.push({ kind: 'termination', turn, reason: 'answered' });
    events.push({ kind: 'reward', turn, breakdown: rescored.breakdown });
  }
  return {
    envId,
    d,
    seed: seed ?? 0,
    axisOverrides: {},
    axes: axesFor(d),
    weights: null,
    catalogId,
    status: 'done',
    terminationReason: rescored.breakdown ? 'answered' : answer ? 'answered' : null,
    reward: reward ?? rescored.reward,
    isCorrect: typeof meta.is_correct === 'boolean' ? meta.is_correct : rescored.isCorrect,
    breakdown: rescored.breakdown,
    turn,
    player:
      typeof meta.player === 'string'
        ? meta.player.slice(0, 80)
        : typeof meta.model === 'string'
          ? `model:${meta.model}`.slice(0, 80)
          : 'imported',
    hiddenGoal: { envId, summary: ['imported chat transcript: the hidden goal was not recorded'], data: null },
    events,
    actions: actions.map((a, i) => ({ format: 'json', raw: JSON.stringify(a), turn: i })),
    goalRevealed: false,
    origin: 'import:openai',
    runLabel,
    recorded: { reward, isCorrect: typeof meta.is_correct === 'boolean' ? meta.is_correct : null, parts: null },
    rescored,
    prompts,
  };
}
