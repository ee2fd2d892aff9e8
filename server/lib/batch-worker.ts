// Episodes played in a worker thread and written on this one, for the curriculum and batch
// runs: one worker entry plays both kinds of job (server/models/batch-worker-entry.ts), posts
// finished batches and stays at most one batch ahead of the writer; a cancel stops it after the
// episode in hand. One idle worker is kept for ECOMRLVE_WORKER_IDLE_S seconds (default 60),
// whichever kind of job comes next, so the next job does not rebuild its catalog copy.
import { parentPort, type Worker } from 'node:worker_threads';
import { startWorkerThread } from './worker-thread';

/** Plays `job`, awaiting `onBatch` for every batch; stops early once `signal` aborts. */
export type BatchPlay<J, B> = (job: J, onBatch: (batch: B) => Promise<void>, signal: AbortSignal) => Promise<void>;
/** The kinds of job a worker entry plays, each with its job and its batch (the entry names them). */
export type BatchKinds = Record<string, { job: unknown; batch: unknown }>;
/** The entry's players, one per kind. */
export type BatchPlayers<M extends BatchKinds> = { [K in keyof M]: BatchPlay<M[K]['job'], M[K]['batch']> };

/** A job of kind K as it crosses to the worker (written so `players[m.kind](m.job)` type-checks). */
type JobMessage<M extends BatchKinds, K extends keyof M = keyof M> = {
  [P in K]: { type: 'job'; kind: P; job: M[P]['job'] };
}[K];
type ToWorker<M extends BatchKinds> = JobMessage<M> | { type: 'written' } | { type: 'cancel' };
type FromWorker = { type: 'batch'; batch: unknown } | { type: 'done' } | { type: 'error'; message: string };

/** Lets other tasks run (messages, requests) between two episodes or two batch writes. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How long an idle worker is kept (`ECOMRLVE_WORKER_IDLE_S`, default 60 s). */
export function workerIdleMs(env: Record<string, string | undefined> = process.env): number {
  const s = Number(env.ECOMRLVE_WORKER_IDLE_S);
  return env.ECOMRLVE_WORKER_IDLE_S && Number.isFinite(s) && s >= 0 ? s * 1000 : 60_000;
}

/** In the worker's entry: serves the parent's jobs, one at a time, each with the player of its kind. */
export function serveBatchJobs<M extends BatchKinds>(players: BatchPlayers<M>): void {
  let cancel = new AbortController();
  let written = 0;
  let wake: (() => void) | null = null;
  const post = (m: FromWorker) => parentPort!.postMessage(m);
  const play = <K extends keyof M>(m: JobMessage<M, K>) => {
    cancel = new AbortController();
    written = 0;
    let sent = 0;
    const { signal } = cancel;
    const onBatch = async (batch: M[K]['batch']) => {
      post({ type: 'batch', batch });
      sent++;
      while (written < sent - 1 && !signal.aborted) await new Promise<void>((r) => (wake = r));
    };
    players[m.kind](m.job, onBatch, signal).then(
      () => post({ type: 'done' }),
      (e: Error) => post({ type: 'error', message: e.message }),
    );
  };
  parentPort?.on('message', (m: ToWorker<M>) => {
    if (m.type === 'job') return play(m);
    if (m.type === 'written') written++;
    else cancel.abort();
    wake?.();
    wake = null;
  });
}

/** The idle worker, kept for the next job of either kind (of the same project directory). */
let idle: { worker: Worker; timer: NodeJS.Timeout; root: string } | null = null;

/** The parent's side: plays each `kind` job of the entry's kinds `M` in the batch worker thread. */
export function batchWorkerPlayer<M extends BatchKinds, K extends keyof M & string>(
  kind: K,
  opts: { root?: string; idleMs?: number } = {},
): BatchPlay<M[K]['job'], M[K]['batch']> {
  const idleMs = opts.idleMs ?? workerIdleMs();
  const root = opts.root ?? process.cwd();
  const take = (): Worker => {
    if (idle?.root !== root)
      // the worker's catalog is its own: a large one needs the same heap room as the server's
      return startWorkerThread('batch', { root, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
    clearTimeout(idle.timer);
    const { worker } = idle;
    idle = null;
    return worker;
  };
  const release = (worker: Worker) => {
    if (idle) return void worker.terminate();
    const timer = setTimeout(() => {
      if (idle?.worker === worker) idle = null;
      void worker.terminate();
    }, idleMs);
    timer.unref();
    worker.unref();
    idle = { worker, timer, root };
  };

  return (job, onBatch, signal) => {
    const worker = take();
    worker.ref();
    const send = (m: ToWorker<M>) => worker.postMessage(m);
    const cancel = () => send({ type: 'cancel' });
    signal.addEventListener('abort', cancel, { once: true });
    return new Promise<void>((resolve, reject) => {
      let writing = Promise.resolve();
      let settled = false;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', cancel);
        worker.off('message', onMessage);
        worker.off('error', finish);
        worker.off('exit', onExit);
        if (err) {
          void worker.terminate();
          reject(err);
        } else {
          release(worker);
          resolve();
        }
      };
      const onMessage = (m: FromWorker) => {
        if (m.type === 'batch') {
          writing = writing.then(async () => {
            // batches queued while one was written would otherwise be written in one macrotask
            await yieldToEventLoop();
            if (settled) return;
            await onBatch(m.batch as M[K]['batch']); // as the entry's player of this kind posted it
            send({ type: 'written' });
          });
          writing.catch((e: Error) => {
            cancel();
            finish(e);
          });
        } else if (m.type === 'done') writing.then(() => finish(), finish);
        else finish(new Error(m.message));
      };
      const onExit = (code: number) => finish(new Error(`the batch worker exited (code ${code}) before it finished`));
      worker.on('message', onMessage);
      worker.on('error', finish);
      worker.on('exit', onExit);
      send({ type: 'job', kind, job } as JobMessage<M, K>);
      if (signal.aborted) cancel();
    });
  };
}
