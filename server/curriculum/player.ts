// A curriculum step's episodes without any storage. One task: pick (env, d) from the state,
// play it G times with the run's player (a built-in agent or a connected model, exactly as a
// batch run plays a cell: server/models/run-play.ts), record the results. Deterministic for
// built-in agents: the task and the episode seed derive from the run's seed and the index of the
// task's first episode, so a run resumed from its stored state continues exactly as an
// uninterrupted one would. A task stopped by an infrastructure failure (a model that could not
// be reached) is not scored: the state does not move, and the next step plays the same task
// again. The step's loop runs in this thread (tests, the CLI) or in the batch worker thread (the
// app), so a 1000-episode step never holds the server's event loop; either way the episodes come
// back in batches, in order, a batch handed over only once the previous one was written.
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
import { batchWorkerPlayer, yieldToEventLoop, type BatchPlay } from '@/server/lib/batch-worker';
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
interface EpisodeCaps {
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

export interface PlayJob {
  state: CurriculumState;
  runSeed: number;
  /** a built-in agent or a connected model (a connection names its key's variable, never the key) */
  player: TablePlayer;
  catalogId: string;
  playable: EnvId[];
  /** episodes to play, in whole groups: ceil(episodes / G) tasks of G rollouts */
  episodes: number;
  /** G: rollouts per task (default 1: no groups) */
  rolloutsPerTask?: number;
  /** the player's sampling temperature (absent: a connection's own; a built-in agent's is 0) */
  temperature?: number;
  /** a batch holds whole groups: at least this many episodes, except the last */
  batchSize: number;
  caps: EpisodeCaps;
}

/**
 * Plays `job.episodes` episodes (whole groups) from `job.state`, calling `onBatch` with every batch
 * of whole groups (`job.batchSize` or a group more; the last may be shorter) and waiting for it.
 * Stops after the current group once `signal` is aborted (a model's turn in flight is aborted and
 * its group dropped), and after the first infrastructure failure (that episode is in the last
 * batch, unscored).
 */
export type EpisodePlayer = BatchPlay<PlayJob, CurriculumStep[]>;
/** The batch worker's kind of job for curriculum steps (server/models/batch-worker-entry.ts serves it). */
export type CurriculumBatch = { curriculum: { job: PlayJob; batch: CurriculumStep[] } };

/** The one play loop of a curriculum step, whichever thread runs it; other tasks run between episodes. */
async function playEpisodes(
  job: PlayJob,
  catalog: Catalog,
  onBatch: (steps: CurriculumStep[]) => Promise<void>,
  signal: AbortSignal,
  at: () => Date = () => new Date(),
): Promise<void> {
  let state = job.state;
  let batch: CurriculumStep[] = [];
  for (let played = 0; played < job.episodes && !signal.aborted;) {
    const steps = await playCurriculumTask({
      state,
      runSeed: job.runSeed,
      player: job.player,
      catalog,
      caps: job.caps,
      rollouts: job.rolloutsPerTask,
      temperature: job.temperature,
      playable: job.playable,
      at: at().toISOString(),
      signal,
    });
    if (!steps) break;
    batch.push(...steps);
    played += steps.length;
    const last = steps.at(-1)!;
    if (!last.outcome) break; // an infrastructure failure: the next ones would most likely fail too
    state = last.outcome.state;
    if (batch.length >= job.batchSize) {
      await onBatch(batch);
      batch = [];
    }
    await yieldToEventLoop();
  }
  if (batch.length > 0) await onBatch(batch);
}

/** Plays in this thread (tests, the CLI; the worker's entry too). */
export const inProcessPlayer =
  (getCatalog: (catalogId: string) => Catalog, at?: () => Date): EpisodePlayer =>
  (job, onBatch, signal) =>
    playEpisodes(job, getCatalog(job.catalogId), onBatch, signal, at);

/** Plays each job in the batch worker thread, so a long step never holds the server's event loop. */
export const workerPlayer = (opts: { root?: string; idleMs?: number } = {}): EpisodePlayer =>
  batchWorkerPlayer<CurriculumBatch, 'curriculum'>('curriculum', opts);
