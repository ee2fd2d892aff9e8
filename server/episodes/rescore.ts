// Re-scoring (issue 7.1): replay an episode's stored actions under the current engine and
// put the new reward beside the stored one. The stored reward is never overwritten (it is what
// the agent earned under its revision); each re-score is kept as its own row.
//
// A replay under a newer engine may not follow the same path: the customer can react
// differently, so the recorded actions may end the episode earlier ('ended_early': the rest
// are ignored) or run out before it ends ('unfinished': no new reward, said so).
import type { PrismaClient } from '@/server/generated/prisma/client';
import { Episode } from '@/server/engine';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EpisodeConfig, EpisodeEvent, RewardBreakdown, TerminationReason } from '@/server/engine/types';

export type ReplayOutcome = 'exact' | 'changed' | 'ended_early' | 'unfinished';

export interface ComponentDiff {
  name: 'reward' | 'pass' | 'termination' | 'r_task' | 'r_eff' | 'r_hall' | 'T_eff' | 'T_user' | 'hard fail';
  old: number | boolean | string | null;
  new: number | boolean | string | null;
  changed: boolean;
}

export interface RescoreOutcome {
  fromRevision: number;
  toRevision: number;
  replay: ReplayOutcome;
  note: string;
  reward: number | null;
  isCorrect: boolean | null;
  terminationReason: TerminationReason | null;
  breakdown: RewardBreakdown | null;
  components: ComponentDiff[];
}

export interface StoredScore {
  revision: number;
  reward: number | null;
  isCorrect: boolean | null;
  terminationReason: TerminationReason | null;
  breakdown: RewardBreakdown | null;
  /** the stored event log, as JSON text per event */
  eventPayloads: string[];
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Old vs new, component by component (numbers compared to 6 decimals). */
export function compareScores(
  old: {
    reward: number | null;
    isCorrect: boolean | null;
    terminationReason: TerminationReason | null;
    breakdown: RewardBreakdown | null;
  },
  now: {
    reward: number | null;
    isCorrect: boolean | null;
    terminationReason: TerminationReason | null;
    breakdown: RewardBreakdown | null;
  },
): ComponentDiff[] {
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
      reward: null,
      isCorrect: null,
      terminationReason: null,
      breakdown: null,
      components: compareScores(stored, { reward: null, isCorrect: null, terminationReason: null, breakdown: null }),
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
    const diverged = events.findIndex((e: EpisodeEvent, i) => JSON.stringify(e) !== stored.eventPayloads[i]);
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
  old: {
    revision: number;
    reward: number | null;
    isCorrect: boolean | null;
    terminationReason: TerminationReason | null;
  };
}

type RescoreRow = Awaited<ReturnType<PrismaClient['episodeRescore']['create']>>;

export function toRescoreView(row: RescoreRow, old: RescoreView['old']): RescoreView {
  return {
    id: row.id,
    episodeId: row.episodeId,
    createdAt: row.createdAt.toISOString(),
    fromRevision: row.fromRevision,
    toRevision: row.toRevision,
    replay: row.replay as ReplayOutcome,
    note: row.note,
    reward: row.reward,
    isCorrect: row.isCorrect,
    terminationReason: (row.terminationReason as TerminationReason | null) ?? null,
    breakdown: row.breakdown ? (JSON.parse(row.breakdown) as RewardBreakdown) : null,
    components: JSON.parse(row.components) as ComponentDiff[],
    old,
  };
}
