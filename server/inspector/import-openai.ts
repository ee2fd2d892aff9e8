// OpenAI chat transcripts with tool calls, one per line:
//   {"messages": [{role, content, tool_calls?, tool_call_id?}...], "metadata"?: {env_id|envId, d|difficulty, seed, reward, player}}
// user → customer message; assistant → agent message + its tool calls (results from the
// matching "tool" messages); an assistant tool call named "answer" (or "submit_answer", as the
// table's tool-calling transcripts and this project's exports name it) carries the final answer.
// With env, d and seed in the metadata the actions are replayed and re-scored.
import { z } from 'zod';
import { axesFor } from '@/server/engine/difficulty';
import { ENV_IDS, type Action, type EnvId, type EpisodeEvent } from '@/server/engine/types';
import type { Catalog } from '@/server/engine/catalog/types';
import { ANSWER_TOOL } from '@/server/models/prompt';
import type { EpisodeRecord } from './insert';
import { rescoreOnCatalog, unscored } from './rescore';

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

/** The metadata's fields under either spelling (snake_case, camelCase or a short name). */
const metaSchema = z.object({
  env: z.unknown(),
  d: z.unknown(),
  seed: z.int().nullable().catch(null),
  catalogId: z.string().optional().catch(undefined),
  reward: z.number().nullable().catch(null),
  isCorrect: z.boolean().nullable().catch(null),
  player: z.string().optional().catch(undefined),
  model: z.string().optional().catch(undefined),
});
const metaOf = (m: Record<string, unknown>) =>
  metaSchema.parse({
    ...m,
    env: m.env_id ?? m.envId ?? m.env,
    d: m.d ?? m.difficulty,
    catalogId: m.catalog_id ?? m.catalogId,
    isCorrect: m.is_correct,
  });
const got = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

export function chatToRecord(
  line: z.infer<typeof chatLineSchema>,
  getCatalog: (id: string) => Catalog,
  defaultCatalogId: string,
  runLabel: string | null,
): EpisodeRecord {
  const meta = metaOf(line.metadata ?? {});
  if (!(ENV_IDS as readonly unknown[]).includes(meta.env))
    throw new Error(`metadata.env_id must name the environment (one of ${ENV_IDS.join(', ')}); got ${got(meta.env)}`);
  const envId = meta.env as EnvId;
  if (!Number.isInteger(meta.d) || (meta.d as number) < 0)
    throw new Error(`metadata.d must be the difficulty (an integer ≥ 0); got ${got(meta.d)}`);
  const d = meta.d as number;
  const { seed, reward } = meta;
  const catalogId = meta.catalogId ?? defaultCatalogId;

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
      if (c.function.name === 'answer' || c.function.name === ANSWER_TOOL) {
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
  const stored = actions.map((a, i) => ({ format: 'json' as const, raw: JSON.stringify(a), turn: i }));
  const rescored =
    seed !== null
      ? rescoreOnCatalog({ envId, d, seed, catalogId }, stored, getCatalog, null)
      : unscored('the metadata has no seed, so the engine cannot replay it');
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
    isCorrect: meta.isCorrect ?? rescored.isCorrect,
    breakdown: rescored.breakdown,
    turn,
    player: (meta.player ?? (meta.model ? `model:${meta.model}` : 'imported')).slice(0, 80),
    hiddenGoal: { envId, summary: ['imported chat transcript: the hidden goal was not recorded'], data: null },
    events,
    actions: stored,
    goalRevealed: false,
    origin: 'import:openai',
    runLabel,
    recorded: { reward, isCorrect: meta.isCorrect, parts: null },
    rescored,
    prompts,
  };
}
