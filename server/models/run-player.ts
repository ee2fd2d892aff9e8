// Who plays a batch run's episodes: a worker thread (the app), so a run of thousands of episodes
// never holds the server's event loop, or this thread (tests, CLIs). Either way the finished
// episodes come back in batches, the worker at most one batch ahead of the writer
// (server/lib/batch-worker.ts).
import type { Catalog } from '@/server/engine';
import { batchWorkerPlayer, yieldToEventLoop } from '@/server/lib/batch-worker';
import type { BatchJobs } from './batch-worker-entry';
import { playRunCells, type PlayedRunEpisode, type RunJob } from './run-play';

export interface RunPlayer {
  /** Plays the job, awaiting `onBatch` for every batch; stops early once `signal` aborts. */
  play(job: RunJob, onBatch: (episodes: PlayedRunEpisode[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** Plays in this thread (tests, CLIs; the worker's entry too), yielding to the event loop after each episode. */
export function inProcessRunPlayer(getCatalog: (catalogId: string) => Catalog): RunPlayer {
  return {
    play: (job, onBatch, signal) => playRunCells(job, getCatalog(job.catalogId), signal, onBatch, yieldToEventLoop),
  };
}

/** Plays each run in the batch worker thread (batch-worker-entry.ts). */
export const workerRunPlayer = (opts: { root?: string; idleMs?: number } = {}): RunPlayer =>
  batchWorkerPlayer<BatchJobs, 'run'>('run', opts);
