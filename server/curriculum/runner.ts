// One curriculum task without any storage: pick (env, d) from the state, play it G times with
// the run's player (a built-in agent or a connected model, exactly as a batch run plays a cell:
// server/models/run-play.ts), record the results. Deterministic for built-in agents: the task and
// the episode seed derive from the run's seed and the index of the task's first episode, so a run
// resumed from its stored state continues exactly as an uninterrupted one would. A task stopped
// by an infrastructure failure (a model that could not be reached) is not scored: the state does
// not move, and the next step plays the same task again.
import { listEnvs, type Catalog } from '@/server/engine';
import {
  nextTask,
  recordResult,
  type CurriculumState,
  type CurriculumTask,
  type RecordOutcome,
} from '@/server/engine/curriculum';
import { hashParts, Rng } from '@/server/engine/random';
import type { EnvId } from '@/server/engine/types';
import { playRunCell, type PlayedRunEpisode } from '@/server/models/run-play';
import type { TablePlayer } from '@/server/models/table';

export interface CurriculumStep {
  /** 0-based index of this episode in the run (a group's rollouts: consecutive). */
  index: number;
  task: CurriculumTask;
  seed: number;
  /** plain data: it crosses from the worker thread that plays it to the thread that writes it */
  episode: PlayedRunEpisode;
  passed: boolean;
  reward: number;
  /** null when an infrastructure failure stopped the episode (not scored, the state unchanged) */
  outcome: RecordOutcome | null;
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

/** The per-episode caps of the episode service (MAX_EPISODE_EVENTS, MAX_EPISODE_BYTES). */
export interface EpisodeCaps {
  maxEvents: number;
  maxBytes: number;
}

/**
 * Plays the next task of the state `rollouts` times (a GRPO group: the same env, d and seed, each
 * rollout sampled with its own seed at `temperature`), then records each rollout's result in
 * order, so the state holds the task across the group. Null when a cancel cut a rollout off; a
 * group stopped by an infrastructure failure is not scored: only that rollout comes back,
 * unscored, and the state does not move (the next step plays the same task again).
 */
export async function playCurriculumTask(args: {
  state: CurriculumState;
  runSeed: number;
  player: TablePlayer;
  catalog: Catalog;
  caps: EpisodeCaps;
  /** G: rollouts of the task (default 1: no group) */
  rollouts?: number;
  /** the player's sampling temperature (absent: a connection's own; a built-in agent's is 0) */
  temperature?: number;
  /** Envs that may be chosen (default: playableEnvs(state)). */
  playable?: EnvId[];
  /** Timestamp stored with window changes. */
  at?: string | null;
  /** Aborts a model's turn in flight (a cancel); built-in agents always finish the group in hand. */
  signal?: AbortSignal;
}): Promise<CurriculumStep[] | null> {
  const { state, runSeed, player, catalog } = args;
  const index = state.episodes;
  const task = nextTask(state, Rng.from('curriculum', runSeed, index), args.playable ?? playableEnvs(state));
  const seed = episodeSeed(runSeed, index);
  const g = args.rollouts ?? 1;
  const signal = player.kind === 'model' && args.signal ? args.signal : new AbortController().signal;
  const played: PlayedRunEpisode[] = [];
  for (let rollout = 0; rollout < g; rollout++) {
    const cell = { envId: task.envId, d: task.d, seed, ...(g > 1 ? { rollout } : {}) };
    const job = { player, temperature: args.temperature, ...args.caps };
    const episode = await playRunCell(cell, job, catalog, signal);
    if (signal.aborted && !episode.done) return null; // cancelled mid-episode: nothing to score or store
    if (episode.infra?.kind === 'internal') {
      const who = player.kind === 'model' ? `model "${player.connection.name}"` : `agent "${player.agent}"`;
      throw new Error(`${who} failed on ${task.envId} at d = ${task.d}, seed ${seed}: ${episode.infra.message}`);
    }
    if (episode.infra)
      return [{ index: index + rollout, task, seed, episode, passed: false, reward: 0, outcome: null }];
    played.push(episode);
  }
  let next = state;
  return played.map((episode, k) => {
    const passed = episode.breakdown?.isCorrect ?? false;
    const outcome = recordResult(next, { envId: task.envId, d: task.d, passed, at: args.at ?? null });
    next = outcome.state;
    return { index: index + k, task, seed, episode, passed, reward: episode.breakdown?.total ?? -1, outcome };
  });
}
