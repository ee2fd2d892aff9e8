// Plays curriculum episodes in a worker thread (server/curriculum/worker-entry.ts): the server's
// event loop only receives finished batches and writes them. The entry is the esbuild bundle
// made at build time (`.next/workers/curriculum.mjs`, scripts/build-workers.mjs) when it exists
// and the process is a production server; otherwise (dev, tests, a build without the bundle)
// the TypeScript source, loaded through tsx (server/curriculum/worker-boot.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EpisodePlayer, PlayJob } from './player';
import type { CurriculumStep } from './runner';
import type { WorkerMessage, WorkerRequest } from './worker-entry';

export const BUILT_WORKER = '.next/workers/curriculum.mjs';

/** How to start the worker: the built bundle, or the source through tsx. `root` is the project directory. */
export function workerEntry(
  root = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): { file: string; built: boolean } {
  // turbopackIgnore: these files are loaded at run time, never bundled or traced by the build
  const built = path.join(/* turbopackIgnore: true */ root, BUILT_WORKER);
  if (env.NODE_ENV === 'production' && fs.existsSync(/* turbopackIgnore: true */ built))
    return { file: built, built: true };
  return { file: path.join(/* turbopackIgnore: true */ root, 'server/curriculum/worker-boot.mjs'), built: false };
}

function startWorker(root: string): Worker {
  const entry = workerEntry(root);
  return new Worker(/* turbopackIgnore: true */ entry.file, {
    workerData: entry.built
      ? undefined
      : { entry: path.join(/* turbopackIgnore: true */ root, 'server/curriculum/worker-entry.ts') },
    // the worker's catalog is its own: a large one needs the same heap room as the server's
    resourceLimits: { maxOldGenerationSizeMb: 4096 },
  });
}

/**
 * A player that runs each job in a worker thread. One idle worker is kept for `idleMs` so the
 * next step does not rebuild its catalog; a job that arrives while it is busy gets its own.
 */
export function workerPlayer(opts: { root?: string; idleMs?: number } = {}): EpisodePlayer {
  const root = opts.root ?? process.cwd();
  const idleMs = opts.idleMs ?? 60_000;
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
