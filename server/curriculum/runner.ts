// One curriculum step without any storage: pick (env, d) from the state, play the episode
// in-process with a built-in agent, record the result. Deterministic: the task and the
// episode seed derive from the run's seed and the episode index, so a run resumed from its
// stored state continues exactly as an uninterrupted one would.
import { listEnvs, playEpisode, type Agent, type Catalog } from '@/server/engine';
import {
  nextTask,
  recordResult,
  type CurriculumState,
  type CurriculumTask,
  type RecordOutcome,
} from '@/server/engine/curriculum';
import { hashParts, Rng } from '@/server/engine/random';
import type { Action, EnvId, EpisodeEvent } from '@/server/engine/types';
import { storedGoalOf } from '@/server/episodes/stored-goal';

type PlayedEpisode = ReturnType<typeof playEpisode>['episode'];

/**
 * What is stored of a played episode, as plain data: it crosses from the worker thread that
 * plays it to the thread that writes it (structured clone; an Episode object would not).
 */
export interface PlayedEpisodeRecord {
  axes: PlayedEpisode['axes'];
  turn: number;
  done: boolean;
  termination: PlayedEpisode['termination'];
  breakdown: PlayedEpisode['breakdown'];
  hiddenGoal: { envId: string; summary: string[]; data: unknown; slots?: unknown };
  events: EpisodeEvent[];
  journeyEnvs: EnvId[] | null;
}

function recordOf(ep: PlayedEpisode): PlayedEpisodeRecord {
  return {
    axes: ep.axes,
    turn: ep.turn,
    done: ep.done,
    termination: ep.termination,
    breakdown: ep.breakdown,
    hiddenGoal: storedGoalOf(ep),
    events: [...ep.events],
    journeyEnvs: ep.config.journeyEnvs ? [...ep.config.journeyEnvs] : null,
  };
}

export interface CurriculumStep {
  /** 0-based index of this episode in the run. */
  index: number;
  task: CurriculumTask;
  seed: number;
  episode: PlayedEpisodeRecord;
  actions: Action[];
  passed: boolean;
  reward: number;
  outcome: RecordOutcome;
}

/** Envs of the state's collection that the engine can run now (others are skipped). */
export function playableEnvs(state: CurriculumState): EnvId[] {
  const available = new Set(listEnvs().map((e) => e.id));
  return state.envs.map((e) => e.envId).filter((id) => available.has(id));
}

/** The seed of episode `index` of a run with seed `runSeed` (0 … 2^31 − 1). */
export function episodeSeed(runSeed: number, index: number): number {
  return hashParts('curriculum-episode', runSeed, index) >>> 1;
}

export function playCurriculumEpisode(args: {
  state: CurriculumState;
  runSeed: number;
  agent: Agent;
  catalog: Catalog;
  /** Envs that may be chosen (default: playableEnvs(state)). */
  playable?: EnvId[];
  /** Timestamp stored with window changes. */
  at?: string | null;
}): CurriculumStep {
  const { state, runSeed, agent, catalog } = args;
  const index = state.episodes;
  const task = nextTask(state, Rng.from('curriculum', runSeed, index), args.playable ?? playableEnvs(state));
  const seed = episodeSeed(runSeed, index);
  let played: ReturnType<typeof playEpisode>;
  try {
    played = playEpisode({ envId: task.envId, d: task.d, seed }, catalog, agent);
  } catch (e) {
    throw new Error(
      `agent "${agent.name}" failed on ${task.envId} at d = ${task.d}, seed ${seed}: ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  const passed = played.episode.breakdown?.isCorrect ?? false;
  const outcome = recordResult(state, { envId: task.envId, d: task.d, passed, at: args.at ?? null });
  return {
    index,
    task,
    seed,
    episode: recordOf(played.episode),
    actions: played.actions,
    passed,
    reward: played.episode.breakdown?.total ?? -1,
    outcome,
  };
}
