// Persistence of episodes: writes through the one writer (writer.ts) in the store's group
// commit (recorder.ts; a step is recorded there), reads through queries/ (the same SQL
// connection). JSON values are TEXT columns (de)serialised here.
//
// Layout: Episode (config, effective axes, status, reward, breakdown, hidden goal),
// EpisodeEvent (the engine's event log verbatim, one row per event, ordered by seq)
// and EpisodeAction (every argument ever passed to Episode.step, ordered by seq:
// format 'text' = raw agent text, 'json' = structured Action). Config + actions are
// enough to rebuild the episode with replayEpisode.
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { Catalog } from '@/server/engine/catalog/types';
import type { AxisValues } from '@/server/engine/difficulty';
import { ENGINE_VERSION } from '@/server/engine/version';
import type {
  Action,
  EnvId,
  EpisodeConfig,
  EpisodeEvent,
  RewardBreakdown,
  RewardWeights,
  TerminationReason,
} from '@/server/engine/types';
import { episodeBudgets } from './budgets';
import type { SqlDb } from '@/server/db/sql';
import { episodeStatements, eventRows, jsonOrNull, newEpisodeId, storedBytesOf } from './writer';
import { commitEpisodeWrite } from './recorder';
import { episodeReads, toSummary, type CustomerRewriteRow } from './queries';
import { deriveGoalData, readStoredGoal } from './stored-goal';
import type { EpisodeSetup, EpisodeStatus, EpisodeView, HiddenGoal } from './types';

/** Where the episode stands after a write: its new events, turn, status and score. */
interface EpisodeProgress {
  events: EpisodeEvent[];
  turn: number;
  status: EpisodeStatus;
  terminationReason: TerminationReason | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
  hiddenGoal: HiddenGoal;
}

/** The Episode row's columns for where it stands (a new episode and every step write them). */
const progressColumns = (rec: EpisodeProgress) => ({
  turn: rec.turn,
  status: rec.status,
  terminationReason: rec.terminationReason,
  reward: rec.reward,
  isCorrect: rec.isCorrect,
  breakdown: rec.breakdown ? JSON.stringify(rec.breakdown) : null,
  hiddenGoal: JSON.stringify(rec.hiddenGoal),
});

export interface NewEpisodeRecord extends EpisodeSetup, EpisodeProgress {
  player: string;
  /** engine rule version (ENGINE_VERSION) and JOURNEY's env set: what a later replay needs */
  engineVersion: number;
  journeyEnvs: readonly string[] | null;
  /** reward revision of the engine that played it (REWARD_REVISION in server/engine/reward.ts) */
  rewardRevision: number;
  /** issue 9 item 8: the LLM customer's connection, and rewrites copied from the parent (a fork) */
  customerVoice?: string | null;
  /** issue 9: fork origin, batch run, and actions copied from the parent (a fork) */
  parentId?: string | null;
  forkTurn?: number | null;
  runId?: string | null;
  actions?: Array<{
    format: 'text' | 'json';
    raw: string;
    actor: string | null;
    modelRecord: string | null;
    eventEnd: number;
  }>;
}

export function createEpisodeStore(db: SqlDb) {
  const writes = episodeStatements(db);
  const reads = episodeReads(db);
  return {
    ...reads,
    /** Episode row, its opening events (and a fork's copied actions), in one transaction. */
    async createEpisode(rec: NewEpisodeRecord): Promise<EpisodeRow> {
      const id = newEpisodeId();
      const events = eventRows(rec.events, 0);
      const actions = (rec.actions ?? []).map((a, seq) => ({ seq, turn: seq, ...a }));
      await commitEpisodeWrite(
        db,
        writes.newEpisode(
          {
            id,
            envId: rec.envId,
            d: rec.d,
            seed: rec.seed,
            axisOverrides: JSON.stringify(rec.axisOverrides),
            axes: JSON.stringify(rec.axes),
            weights: jsonOrNull(rec.weights),
            catalogId: rec.catalogId,
            player: rec.player,
            ...progressColumns(rec),
            eventCount: events.length,
            engineVersion: rec.engineVersion,
            journeyEnvs: jsonOrNull(rec.journeyEnvs),
            rewardRevision: rec.rewardRevision,
            storedBytes: storedBytesOf(events, actions),
            parentId: rec.parentId ?? null,
            forkTurn: rec.forkTurn ?? null,
            runId: rec.runId ?? null,
            customerVoice: rec.customerVoice ?? null,
          },
          events,
          actions,
        ),
      );
      return (await reads.getRow(id))!;
    },

    /** Events of an episode stored after the fact, from seq `firstSeq` (live.ts: a deferred-events server's episodes). */
    async addEvents(id: string, events: readonly EpisodeEvent[], firstSeq: number): Promise<void> {
      await commitEpisodeWrite(db, writes.events(id, eventRows(events, firstSeq)));
    },

    async addRewrite(rec: CustomerRewriteRow & { episodeId: string }): Promise<void> {
      await commitEpisodeWrite(db, [writes.rewrite(rec)]);
    },
  };
}

export type EpisodeStore = ReturnType<typeof createEpisodeStore>;

/**
 * The view of an episode from its row and events. The catalog is read only for a goal stored without its data (trainer episodes, stored-goal.ts); load it
 * first where loading is asynchronous (`goalDataIsDerived`).
 */
export function viewOf(
  row: EpisodeRow,
  events: EpisodeEvent[],
  catalogOf: (catalogId: string) => Catalog,
): EpisodeView {
  const axes = JSON.parse(row.axes) as AxisValues;
  const hiddenGoal = readStoredGoal(row.hiddenGoal, () =>
    deriveGoalData(configOfRow(row), () => catalogOf(row.catalogId), row.engineVersion),
  );
  return {
    ...toSummary(row),
    axisOverrides: JSON.parse(row.axisOverrides) as Partial<AxisValues>,
    axes,
    weights: row.weights ? (JSON.parse(row.weights) as RewardWeights) : null,
    breakdown: row.breakdown ? (JSON.parse(row.breakdown) as RewardBreakdown) : null,
    budgets: episodeBudgets(row.envId, hiddenGoal.data, axes),
    events,
    hiddenGoal,
    customerVoice: row.customerVoice,
  };
}

/** The engine config an episode row was started with. */
export function configOfRow(
  row: Pick<EpisodeRow, 'envId' | 'd' | 'seed' | 'axisOverrides' | 'weights' | 'journeyEnvs' | 'engineVersion'>,
): EpisodeConfig {
  const overrides = JSON.parse(row.axisOverrides) as Partial<AxisValues>;
  return {
    envId: row.envId as EnvId,
    d: row.d,
    seed: row.seed,
    ...(Object.keys(overrides).length ? { axisOverrides: overrides } : {}),
    ...(row.weights ? { weights: JSON.parse(row.weights) as RewardWeights } : {}),
    ...(row.journeyEnvs ? { journeyEnvs: JSON.parse(row.journeyEnvs) as EnvId[] } : {}),
    // an older episode replays under the rules it was played with (engine/version.ts)
    ...(row.engineVersion !== ENGINE_VERSION ? { engineVersion: row.engineVersion } : {}),
  };
}

/** The argument to pass to step()/replayEpisode for a stored action. */
export function actionArgument(a: { format: string; raw: string }): string | Action {
  return a.format === 'json' ? (JSON.parse(a.raw) as Action) : a.raw;
}
