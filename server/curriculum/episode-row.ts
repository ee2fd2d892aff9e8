// The Episode row of one played curriculum episode, as the episode writer stores it
// (server/episodes/writer.ts). Its columns of a played episode also serve the batch runs
// (server/models/runs.ts).
import { REWARD_REVISION } from '@/server/engine/reward';
import { ENGINE_VERSION } from '@/server/engine/version';
import { eventRows, jsonOrNull, storedBytesOf, type EpisodeInsert, type EventRow } from '@/server/episodes/writer';
import type { CurriculumStep, PlayedEpisodeRecord } from './runner';

export interface CurriculumEpisodeRows {
  /** the Episode columns, without its id */
  episode: Omit<EpisodeInsert, 'id'>;
  events: EventRow[];
  /** each step() call took one structured action at turn = index (turns start at 0 before the first step) */
  actions: Array<{ seq: number; turn: number; format: 'json'; raw: string }>;
}

/** The Episode columns that say how a played episode stands (no overrides, default weights). */
export function playedEpisodeColumns(
  ep: Pick<PlayedEpisodeRecord, 'axes' | 'turn' | 'done' | 'termination' | 'breakdown' | 'hiddenGoal' | 'journeyEnvs'>,
) {
  return {
    axisOverrides: '{}',
    axes: JSON.stringify(ep.axes),
    weights: null,
    turn: ep.turn,
    status: ep.done ? 'done' : 'active',
    terminationReason: ep.termination,
    reward: ep.breakdown ? ep.breakdown.total : null,
    isCorrect: ep.breakdown ? ep.breakdown.isCorrect : null,
    breakdown: jsonOrNull(ep.breakdown),
    hiddenGoal: JSON.stringify(ep.hiddenGoal),
    engineVersion: ENGINE_VERSION,
    rewardRevision: REWARD_REVISION,
    journeyEnvs: jsonOrNull(ep.journeyEnvs),
  };
}

export function curriculumEpisodeRows(
  step: CurriculumStep,
  run: { runId: string; catalogId: string; player: string },
): CurriculumEpisodeRows {
  const ep = step.episode;
  const events = eventRows(ep.events, 0);
  const actions = step.actions.map((a, seq) => ({ seq, turn: seq, format: 'json' as const, raw: JSON.stringify(a) }));
  return {
    episode: {
      envId: step.task.envId,
      d: step.task.d,
      seed: step.seed,
      ...playedEpisodeColumns(ep),
      catalogId: run.catalogId,
      player: run.player,
      eventCount: events.length,
      storedBytes: storedBytesOf(events, actions),
      curriculumRunId: run.runId,
    },
    events,
    actions,
  };
}
