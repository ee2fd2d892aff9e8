// Exporting episodes: the project's JSONL format (one episode per line, see format.ts) and
// chat-format messages for supervised fine-tuning (one conversation per line).
import { loadCatalog } from '@/server/catalogs';
import { configOfRow } from '@/server/episodes/store';
import { episodeReads } from '@/server/episodes/queries';
import { deriveGoalData, goalDataIsDerived, readStoredGoal } from '@/server/episodes/stored-goal';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId, EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { episodeBudgets } from '@/server/episodes/budgets';
import { buildMessages, seatHistory } from '@/server/models/transcript';
import type { ActionMode } from '@/server/models/connection';
import type { ChatMessage } from '@/server/models/openai';
import type { AxisValues } from '@/server/engine/difficulty';
import type { SqlDb } from '@/server/db/sql';
import { FORMAT_NAME, FORMAT_VERSION, type EpisodeLine } from './format';
import { toCollectRecord } from './openenv-collect';
import { goalOpen } from './spoiler';

const parse = (s: string | null) => (s === null ? null : JSON.parse(s));

/** A turn's action as the JSON text a model would have sent, from the turn's events. */
function actionFromEvents(events: readonly EpisodeEvent[], turn: number): string {
  const here = events.filter((e) => e.turn === turn);
  const agent = here.find((e) => e.kind === 'agent_message');
  const calls = here.flatMap((e) => (e.kind === 'tool_call' ? [{ name: e.name, args: e.args }] : []));
  const answer = here.find((e) => e.kind === 'answer');
  return JSON.stringify({ assistant_message: agent?.text ?? '', tool_calls: calls, answer: answer?.answer ?? null });
}

/**
 * A stored episode's agent-seat conversation in the form a model in `mode` is sent it at the table
 * (models/transcript.ts; the customer's words as the engine logged them, not an LLM customer's
 * rewording), each action as it was sent, else (an import without actions) rebuilt from the
 * events. A finished episode ends with its last action (its last observation was never sent).
 * Never the hidden goal: the goal's data only sets the budgets the prompt states.
 */
function transcriptOf(
  line: {
    envId: string;
    turn: number;
    status: string;
    axes: AxisValues;
    hiddenGoal: { data: unknown };
    events: EpisodeEvent[];
    actions: ReadonlyArray<{ raw: string }>;
  },
  mode: ActionMode,
): ChatMessage[] {
  const envId = line.envId as EnvId;
  const budgets = episodeBudgets(envId, line.hiddenGoal.data, line.axes);
  const actions = Array.from(
    { length: line.turn },
    (_, i) => line.actions[i]?.raw ?? actionFromEvents(line.events, i + 1),
  );
  const history = seatHistory({ envId, events: line.events, budgets }, actions);
  if (line.status === 'done') history.observations[line.turn].done = true;
  return buildMessages(history, mode);
}

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

  return { episodeLine };
}

type StoredLine = NonNullable<Awaited<ReturnType<ReturnType<typeof createExporter>['episodeLine']>>>;

/** An episode as one line for SFT: the conversation in the form a JSON-mode model is sent it (transcriptOf), never the goal. */
const chatRecord = (line: StoredLine) => ({
  messages: transcriptOf(line, 'json'),
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
});

/**
 * JSONL text for these ids, in order (unknown ids are left out, and so are episodes still being
 * played whose goal was not revealed: their goal and seed would spoil them, spoiler.ts);
 * 'chat': for SFT; 'openenv': OpenEnv collect's results.jsonl.
 */
export async function exportJsonl(db: SqlDb, ids: string[], kind: 'episodes' | 'chat' | 'openenv'): Promise<string> {
  const ex = createExporter(db);
  const lines: string[] = [];
  for (const id of ids) {
    if (!(await goalOpen(db, id))) continue;
    const line = await ex.episodeLine(id);
    if (!line) continue;
    const out =
      kind === 'chat'
        ? chatRecord(line)
        : kind === 'openenv'
          ? toCollectRecord(line as Omit<EpisodeLine, 'hiddenGoal'>, transcriptOf(line, 'tools'))
          : line;
    lines.push(JSON.stringify(out));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
