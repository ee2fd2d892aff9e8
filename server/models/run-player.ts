// Who plays a batch run's episodes: a worker thread (the app: run-worker-entry.ts), so a run of
// thousands of episodes never holds the server's event loop, or this thread (tests, CLIs). Either
// way the finished episodes come back in batches and the next batch is handed over only once the
// previous one was written (the worker plays at most one batch ahead of the writer).
import type { Catalog } from '@/server/engine';
import { startWorkerThread } from '@/server/lib/worker-thread';
import { playRunCells, type PlayedRunEpisode, type RunJob } from './run-play';
import type { RunWorkerMessage, RunWorkerRequest } from './run-worker-entry';

export interface RunPlayer {
  /** Plays the job, awaiting `onBatch` for every batch; stops early once `signal` aborts. */
  play(job: RunJob, onBatch: (episodes: PlayedRunEpisode[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** Lets other requests run between two batches (queued batches would otherwise be written in one macrotask). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Plays in this thread, yielding to the event loop after each episode. */
export function inProcessRunPlayer(getCatalog: (catalogId: string) => Catalog): RunPlayer {
  return {
    play: (job, onBatch, signal) => playRunCells(job, getCatalog(job.catalogId), signal, onBatch, yieldToEventLoop),
  };
}

/** Plays each run in its own worker thread, ended when the run ends (its catalog copy goes with it). */
export function workerRunPlayer(opts: { root?: string } = {}): RunPlayer {
  return {
    play(job, onBatch, signal) {
      // the worker's catalog is its own: a large one needs the same heap room as the server's
      const worker = startWorkerThread('runs', { root: opts.root, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
      const send = (m: RunWorkerRequest) => worker.postMessage(m);
      const cancel = () => send({ type: 'cancel' });
      signal.addEventListener('abort', cancel, { once: true });
      return new Promise<void>((resolve, reject) => {
        let writing = Promise.resolve();
        let settled = false;
        const finish = (err?: Error) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', cancel);
          void worker.terminate();
          if (err) reject(err);
          else resolve();
        };
        worker.on('message', (m: RunWorkerMessage) => {
          if (m.type === 'batch') {
            writing = writing.then(async () => {
              await yieldToEventLoop();
              if (settled) return;
              await onBatch(m.episodes);
              send({ type: 'written' });
            });
            writing.catch((e: Error) => {
              cancel();
              finish(e);
            });
          } else if (m.type === 'done') writing.then(() => finish(), finish);
          else finish(new Error(m.message));
        });
        worker.on('error', finish);
        worker.on('exit', (code) => finish(new Error(`the run's worker exited (code ${code}) before it finished`)));
        send({ type: 'job', job });
        if (signal.aborted) cancel();
      });
    },
  };
}
