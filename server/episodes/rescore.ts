// Re-scoring (issue 7.1): replay an episode's stored actions under the current engine and
// put the new reward beside the stored one. The stored reward is never overwritten (it is what
// the agent earned under its revision); each re-score is kept as its own row. Used by the replay
// page (tRPC replay.rescore) and `npm run rescore` (scripts/rescore-cli.ts, which also picks the
// episodes of `--all`).
//
// A replay under a newer engine may not follow the same path: the customer can react
// differently, so the recorded actions may end the episode earlier ('ended_early': the rest
// are ignored) or run out before it ends ('unfinished': no new reward, said so).
import type { PrismaClient } from '@/server/generated/prisma/client';
import { Episode } from '@/server/engine';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EpisodeConfig, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { idSchema } from './inputs';
import { episodeReads } from './queries';
import { sqlDbOf } from './service';
import { actionArgument, configOfRow } from './store';
import { EpisodeServiceError } from './types';

type ReplayOutcome = 'exact' | 'changed' | 'ended_early' | 'unfinished';

export interface ComponentDiff {
  name: 'reward' | 'pass' | 'termination' | 'r_task' | 'r_eff' | 'r_hall' | 'T_eff' | 'T_user' | 'hard fail';
  old: number | boolean | string | null;
  new: number | boolean | string | null;
  changed: boolean;
}

/** A reward as stored on an episode row, or as a replay gives it. */
interface Score {
  reward: number | null;
  isCorrect: boolean | null;
  terminationReason: TerminationReason | null;
  breakdown: RewardBreakdown | null;
}

interface RescoreOutcome extends Score {
  fromRevision: number;
  toRevision: number;
  replay: ReplayOutcome;
  note: string;
  components: ComponentDiff[];
}

interface StoredScore extends Score {
  revision: number;
  /** the stored event log, as JSON text per event */
  eventPayloads: string[];
}

const NO_SCORE: Score = { reward: null, isCorrect: null, terminationReason: null, breakdown: null };
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Old vs new, component by component (numbers compared to 6 decimals). */
export function compareScores(old: Score, now: Score): ComponentDiff[] {
  const num = (x: number | null | undefined) => (typeof x === 'number' ? round(x) : null);
  const rows: Array<[ComponentDiff['name'], ComponentDiff['old'], ComponentDiff['new']]> = [
    ['reward', num(old.reward), num(now.reward)],
    ['pass', old.isCorrect, now.isCorrect],
    ['termination', old.terminationReason, now.terminationReason],
    ['r_task', num(old.breakdown?.rTask), num(now.breakdown?.rTask)],
    ['r_eff', num(old.breakdown?.rEff), num(now.breakdown?.rEff)],
    ['r_hall', num(old.breakdown?.rHall), num(now.breakdown?.rHall)],
    ['T_eff', num(old.breakdown?.tEff), num(now.breakdown?.tEff)],
    ['T_user', num(old.breakdown?.tUser), num(now.breakdown?.tUser)],
    ['hard fail', old.breakdown?.hardFail ?? null, now.breakdown?.hardFail ?? null],
  ];
  return rows.map(([name, o, n]) => ({ name, old: o, new: n, changed: o !== n }));
}

/** Pure: replays `actions` from `config` under the current engine and compares with `stored`. */
export function rescoreActions(
  config: EpisodeConfig,
  catalog: Catalog,
  actions: ReadonlyArray<string | Action>,
  stored: StoredScore,
): RescoreOutcome {
  const episode = new Episode(config, catalog);
  episode.reset();
  let used = 0;
  while (used < actions.length && !episode.done) episode.step(actions[used++]);
  const base = { fromRevision: stored.revision, toRevision: REWARD_REVISION };
  if (!episode.done) {
    return {
      ...base,
      replay: 'unfinished',
      note: `under revision ${REWARD_REVISION} the episode is still going after all ${actions.length} recorded action(s) (turn ${episode.turn}): the customer now reacts differently, so there is no new reward`,
      ...NO_SCORE,
      components: compareScores(stored, NO_SCORE),
    };
  }
  const b = episode.breakdown!;
  const now = { reward: b.total, isCorrect: b.isCorrect, terminationReason: episode.termination, breakdown: b };
  let replay: ReplayOutcome;
  let note: string;
  if (used < actions.length) {
    replay = 'ended_early';
    note = `under revision ${REWARD_REVISION} the episode ended at turn ${episode.turn} (${episode.termination}); the last ${actions.length - used} recorded action(s) were not used`;
  } else {
    const events = episode.events;
    const diverged = events.findIndex((e, i) => JSON.stringify(e) !== stored.eventPayloads[i]);
    const firstDiff =
      diverged >= 0
        ? diverged
        : events.length !== stored.eventPayloads.length
          ? Math.min(events.length, stored.eventPayloads.length)
          : -1;
    // the reward event itself always carries the new breakdown; only earlier events tell whether the play changed
    const playChanged = firstDiff >= 0 && firstDiff < events.length - 1 && events[firstDiff].kind !== 'reward';
    replay = playChanged ? 'changed' : 'exact';
    note = playChanged
      ? `all ${actions.length} action(s) replayed; the episode differs from event ${firstDiff} on (${events[firstDiff].kind}, turn ${events[firstDiff].turn})`
      : `all ${actions.length} action(s) replayed to the same events; only the scoring differs`;
  }
  return { ...base, replay, note, ...now, components: compareScores(stored, now) };
}

export interface RescoreView extends RescoreOutcome {
  id: string;
  episodeId: string;
  createdAt: string;
  /** the stored (original) score, for side-by-side display */
  old: { revision: number } & Omit<Score, 'breakdown'>;
}

type EpisodeRow = { rewardRevision: number; terminationReason: string | null } & Omit<
  Score,
  'terminationReason' | 'breakdown'
>;
type RescoreRow = Awaited<ReturnType<PrismaClient['episodeRescore']['create']>>;

const oldOf = (row: EpisodeRow): RescoreView['old'] => ({
  revision: row.rewardRevision,
  reward: row.reward,
  isCorrect: row.isCorrect,
  terminationReason: row.terminationReason as TerminationReason | null,
});

const viewOf = (row: RescoreRow, episode: EpisodeRow): RescoreView => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  replay: row.replay as ReplayOutcome,
  terminationReason: row.terminationReason as TerminationReason | null,
  breakdown: row.breakdown ? (JSON.parse(row.breakdown) as RewardBreakdown) : null,
  components: JSON.parse(row.components) as ComponentDiff[],
  old: oldOf(episode),
});

export function createRescoreService(deps: { prisma: PrismaClient; getCatalog: (catalogId?: string) => Catalog }) {
  const store = episodeReads(sqlDbOf(deps.prisma));

  async function requireRow(episodeId: string) {
    const row = await store.getRow(episodeId);
    if (!row) throw new EpisodeServiceError('NOT_FOUND', `no episode with id "${episodeId}"`);
    return row;
  }

  return {
    currentRevision: REWARD_REVISION,

    async rescoreEpisode(episodeId: string): Promise<RescoreView> {
      if (!idSchema.safeParse(episodeId).success)
        throw new EpisodeServiceError('BAD_INPUT', `episode id ${JSON.stringify(episodeId)} is not an episode id`);
      const row = await requireRow(episodeId);
      if (row.status !== 'done')
        throw new EpisodeServiceError(
          'BAD_INPUT',
          `episode ${row.id} is still active; only a finished episode can be re-scored`,
        );
      const [actions, events] = await Promise.all([store.getActions(row.id), store.getEvents(row.id)]);
      let outcome;
      try {
        outcome = rescoreActions(configOfRow(row), deps.getCatalog(row.catalogId), actions.map(actionArgument), {
          ...oldOf(row),
          breakdown: row.breakdown ? (JSON.parse(row.breakdown) as RewardBreakdown) : null,
          eventPayloads: events.map((e) => e.payload),
        });
      } catch (e) {
        throw new EpisodeServiceError(
          'BAD_INPUT',
          `episode ${row.id} cannot be replayed under revision ${REWARD_REVISION}: ${(e as Error).message}`,
        );
      }
      const { components, breakdown, ...rest } = outcome;
      const saved = await deps.prisma.episodeRescore.create({
        data: {
          ...rest,
          episodeId: row.id,
          breakdown: breakdown ? JSON.stringify(breakdown) : null,
          components: JSON.stringify(components),
        },
      });
      return viewOf(saved, row);
    },

    /** Re-scores of one episode, newest first. */
    async listRescores(episodeId: string): Promise<RescoreView[]> {
      const row = await requireRow(episodeId);
      const rows = await deps.prisma.episodeRescore.findMany({
        where: { episodeId: row.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map((r) => viewOf(r, row));
    },
  };
}

export type RescoreService = ReturnType<typeof createRescoreService>;
