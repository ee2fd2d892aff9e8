// Who plays a batch run's episodes: a worker thread (the app), so a run of thousands of episodes
// never holds the server's event loop, or this thread (tests, CLIs). Either way the finished
// episodes come back in batches, the worker at most one batch ahead of the writer
// (server/lib/batch-worker.ts).
import type { Catalog } from '@/server/engine';
import { batchWorkerPlayer, yieldToEventLoop, type BatchPlay } from '@/server/lib/batch-worker';
import { playRunCells, type PlayedRunEpisode, type RunJob } from './run-play';

/** Plays the job, awaiting `onBatch` for every batch; stops early once `signal` aborts. */
export type RunPlayer = BatchPlay<RunJob, PlayedRunEpisode[]>;
/** The batch worker's kind of job for runs (batch-worker-entry.ts serves it). */
export type RunBatch = { run: { job: RunJob; batch: PlayedRunEpisode[] } };

/** Plays in this thread (tests, CLIs; the worker's entry too), yielding to the event loop after each episode. */
export const inProcessRunPlayer =
  (getCatalog: (catalogId: string) => Catalog): RunPlayer =>
  (job, onBatch, signal) =>
    playRunCells(job, getCatalog(job.catalogId), signal, onBatch, yieldToEventLoop);

/** Plays each run in the batch worker thread (batch-worker-entry.ts). */
export const workerRunPlayer = (opts: { root?: string; idleMs?: number } = {}): RunPlayer =>
  batchWorkerPlayer<RunBatch, 'run'>('run', opts);
