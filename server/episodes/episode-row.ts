// The Episode row of a new episode, built one way whoever starts it: the episode service (a
// start, a fork), the trainer API's recorder (a reset), a batch run's cell or a curriculum
// episode played off the request thread. What differs between them (id, player, the goal as
// that writer stores it, links to runs) comes in `columns`; where the episode stands and the
// rules it is played under come from the episode itself.
import { ENGINE_VERSION } from '@/server/engine/version';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { AxisValues } from '@/server/engine/difficulty';
import type { EpisodeConfig, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import type { PlayedRunEpisode } from '@/server/models/run-play';
import {
  eventRows,
  jsonOrNull,
  newEpisodeId,
  storedBytesOf,
  type ActionInsert,
  type EpisodeInsert,
  type EventRow,
} from './writer';

/** An episode as a new row records it: an engine Episode is one; a played run episode is adapted to one. */
export interface PlayedState {
  config: Pick<EpisodeConfig, 'envId' | 'd' | 'seed' | 'axisOverrides' | 'journeyEnvs' | 'engineVersion'>;
  axes: AxisValues;
  turn: number;
  done: boolean;
  termination: TerminationReason | null;
  breakdown: RewardBreakdown | null;
}

/** What the writer of a new row says itself: its catalog, player and goal text, and any other column. */
export type NewEpisodeColumns = Pick<EpisodeInsert, 'catalogId' | 'player' | 'hiddenGoal'> & Partial<EpisodeInsert>;

/** The new row; `events` and `actions` as stored with it (their count and bytes are columns). */
export function newEpisodeRow(
  ep: PlayedState,
  columns: NewEpisodeColumns,
  events: readonly EventRow[],
  actions: ReadonlyArray<{ raw: string }> = [],
): EpisodeInsert {
  const { config, breakdown } = ep;
  return {
    id: newEpisodeId(),
    envId: config.envId,
    d: config.d,
    seed: config.seed,
    axisOverrides: JSON.stringify(config.axisOverrides ?? {}),
    axes: JSON.stringify(ep.axes),
    weights: null,
    turn: ep.turn,
    status: ep.done ? 'done' : 'active',
    terminationReason: ep.termination,
    reward: breakdown ? breakdown.total : null,
    isCorrect: breakdown ? breakdown.isCorrect : null,
    breakdown: jsonOrNull(breakdown),
    eventCount: events.length,
    // the rules it is played under (a fork continues under its parent's), so a replay stays honest
    engineVersion: config.engineVersion ?? ENGINE_VERSION,
    rewardRevision: REWARD_REVISION,
    journeyEnvs: jsonOrNull(config.journeyEnvs),
    storedBytes: storedBytesOf(events, actions),
    ...columns,
  };
}

export interface PlayedEpisodeRows {
  episode: EpisodeInsert;
  events: EventRow[];
  actions: ActionInsert[];
}

/**
 * The rows of an episode played off the request thread (a batch run's cell, server/models/runs.ts,
 * or a curriculum episode, server/curriculum/store.ts): what the episode service would have left
 * after these turns, each turn with its actor. `link` ties it to its batch run or curriculum run.
 */
export function playedEpisodeRows(
  played: PlayedRunEpisode,
  run: {
    actor: string;
    catalogId: string;
    link: { runId: string } | { curriculumRunId: string };
    /** a curriculum step's train step, and its group's name (a batch run's groups are named by task) */
    trainStep?: number;
    group?: string | null;
  },
): PlayedEpisodeRows {
  const events = eventRows(played.events, 0);
  const actions = played.actions.map((a, seq) => ({ seq, turn: seq, ...a, actor: run.actor }));
  const { cell, infra } = played;
  const episode = newEpisodeRow(
    { ...played, config: { ...cell, journeyEnvs: played.journeyEnvs ?? undefined } },
    {
      catalogId: run.catalogId,
      player: run.actor,
      hiddenGoal: JSON.stringify(played.hiddenGoal),
      // a model that could not be reached ends its episode, unscored: infrastructure-aborted
      ...(infra ? { status: 'done', terminationReason: 'aborted', reward: null, isCorrect: null } : {}),
      infraError: jsonOrNull(infra),
      // the group a sampled rollout belongs to: its task (the default grouping gives the same groups; stored for readers)
      rolloutGroup:
        run.group !== undefined
          ? run.group
          : cell.rollout === undefined
            ? null
            : `${cell.envId}:${cell.d}:${cell.seed}`,
      trainStep: run.trainStep ?? null,
      ...run.link,
    },
    events,
    actions,
  );
  return { episode, events, actions };
}
