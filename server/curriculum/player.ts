// Who plays a curriculum step's episodes: in this thread (tests, the CLI) or in a worker thread
// (the app), so a 1000-episode step never holds the server's event loop. Either way the episodes
// come back in batches, in order, and a batch is handed over only once the previous one was
// written (at most one batch is played ahead of the writer).
import type { CurriculumState } from '@/server/engine/curriculum';
import type { Catalog } from '@/server/engine';
import type { EnvId } from '@/server/engine/types';
import { batchWorkerPlayer, yieldToEventLoop } from '@/server/lib/batch-worker';
import { findAgent } from './agents';
import { playCurriculumEpisode, type CurriculumStep } from './runner';

export interface PlayJob {
  state: CurriculumState;
  runSeed: number;
  /** a built-in agent's name (checked by the service before) */
  agent: string;
  catalogId: string;
  playable: EnvId[];
  episodes: number;
  batchSize: number;
}

export interface EpisodePlayer {
  /**
   * Plays up to `job.episodes` episodes from `job.state`, calling `onBatch` with every batch of
   * `job.batchSize` (the last may be shorter) and waiting for it. Stops after the current
   * episode once `signal` is aborted.
   */
  play(job: PlayJob, onBatch: (steps: CurriculumStep[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** The one play loop of a curriculum step, whichever thread runs it; other tasks run between episodes. */
export async function playEpisodes(
  job: PlayJob,
  catalog: Catalog,
  onBatch: (steps: CurriculumStep[]) => Promise<void>,
  signal: AbortSignal,
  at: () => Date = () => new Date(),
): Promise<void> {
  const agent = findAgent(job.agent);
  if (!agent) throw new Error(`unknown agent "${job.agent}"`);
  let state = job.state;
  let batch: CurriculumStep[] = [];
  for (let i = 0; i < job.episodes && !signal.aborted; i++) {
    const step = playCurriculumEpisode({
      state,
      runSeed: job.runSeed,
      agent,
      catalog,
      playable: job.playable,
      at: at().toISOString(),
    });
    state = step.outcome.state;
    batch.push(step);
    if (batch.length >= job.batchSize) {
      await onBatch(batch);
      batch = [];
    }
    await yieldToEventLoop();
  }
  if (batch.length > 0) await onBatch(batch);
}

/** Plays in this thread (tests, the CLI; the worker's entry too). */
export function inProcessPlayer(getCatalog: (catalogId: string) => Catalog, at?: () => Date): EpisodePlayer {
  return { play: (job, onBatch, signal) => playEpisodes(job, getCatalog(job.catalogId), onBatch, signal, at) };
}

/** Plays each job in a worker thread (worker-entry.ts), so a long step never holds the server's event loop. */
export const workerPlayer = (opts: { root?: string; idleMs?: number } = {}): EpisodePlayer =>
  batchWorkerPlayer<PlayJob, CurriculumStep[]>('curriculum', opts);
