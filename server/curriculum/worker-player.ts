// Plays curriculum episodes in a worker thread (server/curriculum/worker-entry.ts): the server's
// event loop only receives finished batches and writes them. How the worker starts (the built
// bundle or the TypeScript source): server/lib/worker-thread.ts.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '@/server/lib/worker-thread';
import type { EpisodePlayer, PlayJob } from './player';
import type { CurriculumStep } from './runner';
import type { WorkerMessage, WorkerRequest } from './worker-entry';

function startWorker(root: string): Worker {
  // the worker's catalog is its own: a large one needs the same heap room as the server's
  return startWorkerThread('curriculum', { root, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
}

/** How long an idle worker is kept (`ECOMRLVE_WORKER_IDLE_S`, default 60 s): its catalog copy stays meanwhile. */
export function workerIdleMs(env: Record<string, string | undefined> = process.env): number {
  const s = Number(env.ECOMRLVE_WORKER_IDLE_S);
  return env.ECOMRLVE_WORKER_IDLE_S && Number.isFinite(s) && s >= 0 ? s * 1000 : 60_000;
}

/**
 * A player that runs each job in a worker thread. One idle worker is kept for `idleMs` so the
 * next step does not rebuild its catalog; a job that arrives while it is busy gets its own.
 */
export function workerPlayer(opts: { root?: string; idleMs?: number } = {}): EpisodePlayer {
  const root = opts.root ?? process.cwd();
  const idleMs = opts.idleMs ?? workerIdleMs();
  let idle: { worker: Worker; timer: NodeJS.Timeout } | null = null;

  const take = (): Worker => {
    if (idle) {
      clearTimeout(idle.timer);
      const { worker } = idle;
      idle = null;
      return worker;
    }
    return startWorker(root);
  };
  const release = (worker: Worker) => {
    if (idle) return void worker.terminate();
    const timer = setTimeout(() => {
      if (idle?.worker === worker) idle = null;
      void worker.terminate();
    }, idleMs);
    timer.unref();
    worker.unref();
    idle = { worker, timer };
  };

  return {
    play(job: PlayJob, onBatch: (steps: CurriculumStep[]) => Promise<void>, signal: AbortSignal) {
      const worker = take();
      worker.ref();
      const control = new Int32Array(new SharedArrayBuffer(8));
      const stop = () => {
        Atomics.store(control, 0, 1);
        Atomics.notify(control, 1);
      };
      signal.addEventListener('abort', stop, { once: true });
      return new Promise<void>((resolve, reject) => {
        let writing = Promise.resolve();
        let failed = false;
        let settled = false;
        const finish = (err?: Error) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', stop);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (err) {
            void worker.terminate();
            reject(err);
          } else {
            release(worker);
            resolve();
          }
        };
        const onMessage = (m: WorkerMessage) => {
          if (m.type === 'batch') {
            writing = writing.then(async () => {
              // Batches queued while one was written arrive together, and a chain of promises
              // would write them all in one macrotask: give other requests their turn first.
              await new Promise((r) => setImmediate(r));
              if (failed) return;
              await onBatch(m.steps);
              Atomics.add(control, 1, 1);
              Atomics.notify(control, 1);
            });
            writing.catch((e: Error) => {
              failed = true;
              stop();
              finish(e);
            });
          } else if (m.type === 'done') {
            writing.then(
              () => !failed && finish(),
              () => undefined,
            );
          } else {
            failed = true;
            finish(new Error(m.message));
          }
        };
        const onError = (e: Error) => {
          failed = true;
          finish(e);
        };
        const onExit = (code: number) => {
          if (!failed) finish(new Error(`the curriculum worker exited (code ${code}) before it finished`));
          failed = true;
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ ...job, control: control.buffer } satisfies WorkerRequest);
      });
    },
  };
}
