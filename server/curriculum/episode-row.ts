// The Episode row, events and actions of one episode played off the request thread (a batch
// run's cell, server/models/runs.ts, or a curriculum episode, ./store.ts), as the episode writer
// stores them (server/episodes/writer.ts): what the episode service would have left after these
// turns, each turn with its actor.
import { REWARD_REVISION } from '@/server/engine/reward';
import { ENGINE_VERSION } from '@/server/engine/version';
import type { PlayedRunEpisode } from '@/server/models/run-play';
import {
  eventRows,
  jsonOrNull,
  newEpisodeId,
  storedBytesOf,
  type ActionInsert,
  type EpisodeInsert,
  type EventRow,
} from '@/server/episodes/writer';

export interface PlayedEpisodeRows {
  episode: EpisodeInsert;
  events: EventRow[];
  actions: ActionInsert[];
}

/** The rows of a played episode; `link` ties it to its batch run or curriculum run. */
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
  const actions = played.actions.map((a, seq) => ({
    seq,
    turn: seq,
    format: a.format,
    raw: a.raw,
    eventEnd: a.eventEnd,
    actor: run.actor,
    modelRecord: a.modelRecord,
  }));
  const { breakdown } = played;
  const episode: EpisodeInsert = {
    id: newEpisodeId(),
    envId: played.cell.envId,
    d: played.cell.d,
    seed: played.cell.seed,
    axisOverrides: '{}',
    axes: JSON.stringify(played.axes),
    weights: null,
    turn: played.turn,
    status: played.done ? 'done' : 'active',
    terminationReason: played.termination,
    reward: breakdown ? breakdown.total : null,
    isCorrect: breakdown ? breakdown.isCorrect : null,
    breakdown: jsonOrNull(breakdown),
    hiddenGoal: JSON.stringify(played.hiddenGoal),
    engineVersion: ENGINE_VERSION,
    rewardRevision: REWARD_REVISION,
    journeyEnvs: jsonOrNull(played.journeyEnvs),
    // a model that could not be reached ends its episode, unscored: infrastructure-aborted
    ...(played.infra ? { status: 'done', terminationReason: 'aborted', reward: null, isCorrect: null } : {}),
    catalogId: run.catalogId,
    player: run.actor,
    eventCount: events.length,
    storedBytes: storedBytesOf(events, actions),
    infraError: played.infra ? JSON.stringify(played.infra) : null,
    // the group a sampled rollout belongs to: its task (the default grouping gives the same groups; stored for readers)
    rolloutGroup:
      run.group !== undefined
        ? run.group
        : played.cell.rollout === undefined
          ? null
          : `${played.cell.envId}:${played.cell.d}:${played.cell.seed}`,
    trainStep: run.trainStep ?? null,
    ...run.link,
  };
  return { episode, events, actions };
}
