// Exporting episodes: the project's JSONL format (one episode per line, see format.ts) and
// chat-format messages for supervised fine-tuning (one conversation per line).
import { loadCatalog } from '@/server/catalogs';
import { configOfRow } from '@/server/episodes/store';
import { episodeReads } from '@/server/episodes/queries';
import { deriveGoalData, goalDataIsDerived, readStoredGoal } from '@/server/episodes/stored-goal';
import type { Catalog } from '@/server/engine/catalog/types';
import type { RewardBreakdown } from '@/server/engine/types';
import type { SqlDb } from '@/server/db/sql';
import { FORMAT_NAME, FORMAT_VERSION, type EpisodeLine } from './format';
import { toCollectRecord } from './openenv-collect';
import { goalOpen } from './spoiler';

const parse = (s: string | null) => (s === null ? null : JSON.parse(s));

/**
 * `catalogOf` is read only for a trainer episode, whose goal is stored without its data
 * (server/episodes/stored-goal.ts); the default is the app's catalog registry.
 */
export function createExporter(db: SqlDb, catalogOf: (catalogId: string) => Promise<Catalog> = loadCatalog) {
  const reads = episodeReads(db);
  /** One episode as a line object of the project's format, or null when the id is unknown. */
  async function episodeLine(id: string) {
    const r = await reads.getRow(id);
    if (!r) return null;
    // A trainer episode's goal is stored without its data (stored-goal.ts): derived here.
    const catalog = goalDataIsDerived(r.hiddenGoal) ? await catalogOf(r.catalogId) : null;
    const hiddenGoal = readStoredGoal(r.hiddenGoal, () =>
      deriveGoalData(configOfRow(r), () => catalog!, r.engineVersion),
    );
    const [events, actions] = [await reads.events(id), await reads.getActions(id)];
    return {
      format: FORMAT_NAME,
      version: FORMAT_VERSION,
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      envId: r.envId,
      d: r.d,
      seed: r.seed,
      axisOverrides: JSON.parse(r.axisOverrides),
      axes: JSON.parse(r.axes),
      weights: parse(r.weights),
      catalogId: r.catalogId,
      player: r.player,
      runLabel: r.runLabel ?? r.curriculumRunId,
      goalRevealed: r.goalRevealed,
      status: r.status,
      terminationReason: r.terminationReason,
      turn: r.turn,
      reward: r.reward,
      isCorrect: r.isCorrect,
      breakdown: parse(r.breakdown) as RewardBreakdown | null,
      hiddenGoal,
      events,
      actions: actions.map(({ format, raw, turn }) => ({ format, raw, turn })),
      prompts: parse(r.prompts),
      origin: r.origin,
      rewardRevision: r.rewardRevision,
      ...(r.recorded ? { recorded: JSON.parse(r.recorded) } : {}),
    };
  }

  /**
   * Chat messages for SFT: the agent's view only (never the hidden goal). The user turns carry
   * the customer's message and the previous turn's tool results; the assistant turns carry the
   * action exactly as it was sent when recorded, else rebuilt from the events.
   */
  async function chatLine(id: string): Promise<Record<string, unknown> | null> {
    const line = await episodeLine(id);
    if (!line) return null;
    const { events: evs, actions: acts } = line;
    const messages: Array<{ role: string; content: string }> = [
      {
        role: 'system',
        content: `You are a shopping assistant in the EcomRLVE ${line.envId} environment (d=${line.d}). Reply with one JSON action per turn.`,
      },
    ];
    for (let t = 0; t <= line.turn; t++) {
      const here = evs.filter((e) => e.turn === t);
      if (t > 0) {
        const a = acts[t - 1];
        const agent = here.find((e) => e.kind === 'agent_message');
        const calls = here.filter((e) => e.kind === 'tool_call').map((e) => ({ name: e.name, args: e.args }));
        const answer = here.find((e) => e.kind === 'answer');
        const content =
          a?.raw ??
          JSON.stringify({ assistant_message: agent?.text ?? '', tool_calls: calls, answer: answer?.answer ?? null });
        messages.push({ role: 'assistant', content });
      }
      const reply = here.find((e) => e.kind === 'customer_message');
      if (reply) {
        const calls = t === 0 ? [] : here.filter((e) => e.kind === 'tool_call');
        const results = calls.map((e) => ({ name: e.name, result: e.result, error: e.error }));
        messages.push({ role: 'user', content: JSON.stringify({ customerMessage: reply.text, toolResults: results }) });
      }
    }
    return {
      messages,
      metadata: {
        episode_id: line.id,
        env_id: line.envId,
        d: line.d,
        seed: line.seed,
        catalog_id: line.catalogId,
        reward: line.reward,
        is_correct: line.isCorrect,
        player: line.player,
      },
    };
  }

  return { episodeLine, chatLine };
}

/**
 * JSONL text for these ids, in order (unknown ids are left out, and so are episodes still being
 * played whose goal was not revealed: their goal and seed would spoil them, spoiler.ts);
 * 'openenv': OpenEnv collect's results.jsonl.
 */
export async function exportJsonl(db: SqlDb, ids: string[], kind: 'episodes' | 'chat' | 'openenv'): Promise<string> {
  const ex = createExporter(db);
  const lines: string[] = [];
  for (const id of ids) {
    if (!(await goalOpen(db, id))) continue;
    const l = kind === 'chat' ? await ex.chatLine(id) : await ex.episodeLine(id);
    if (l) lines.push(JSON.stringify(kind === 'openenv' ? toCollectRecord(l as EpisodeLine) : l));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
