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
import type { Action, EnvId, EpisodeConfig, EpisodeEvent, RewardBreakdown, RewardWeights } from '@/server/engine/types';
import { episodeBudgets } from './budgets';
import type { SqlDb } from '@/server/db/sql';
import { episodeStatements, eventRows, type ActionInsert } from './writer';
import { newEpisodeRow, type NewEpisodeColumns, type PlayedState } from './episode-row';
import { commitEpisodeWrite } from './recorder';
import { episodeReads, toSummary, type CustomerRewriteRow } from './queries';
import { deriveGoalData, readStoredGoal } from './stored-goal';
import type { EpisodeView } from './types';

/** An action a fork copies from its parent (with who took it and what the step ended at). */
type CopiedAction = Omit<ActionInsert, 'seq' | 'turn' | 'stepKey'>;

export function createEpisodeStore(db: SqlDb) {
  const writes = episodeStatements(db);
  const reads = episodeReads(db);
  return {
    ...reads,
    /** A new episode: its row (episode-row.ts), its opening events and a fork's copied actions, in one transaction. */
    async createEpisode(
      ep: PlayedState & { events: readonly EpisodeEvent[] },
      columns: NewEpisodeColumns,
      copied: readonly CopiedAction[] = [],
    ): Promise<EpisodeRow> {
      const events = eventRows(ep.events, 0);
      const actions = copied.map((a, seq) => ({ seq, turn: seq, ...a }));
      const row = newEpisodeRow(ep, columns, events, actions);
      await commitEpisodeWrite(db, writes.newEpisode(row, events, actions));
      return (await reads.getRow(row.id))!;
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
