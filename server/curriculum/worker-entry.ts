// The curriculum's worker thread: plays a job's episodes with the pure engine and posts them
// back in batches (server/curriculum/worker-player.ts is the other side). Loads no database and
// nothing of Next; its catalog is its own copy from the registry (server/catalogs.ts).
// Control words shared with the parent: [0] cancel (1 = stop after this episode),
// [1] batches the parent has written (the worker stays at most one batch ahead).
import { parentPort } from 'node:worker_threads';
import { getCatalog } from '@/server/catalogs';
import { playEpisodes, type PlayJob } from './player';
import type { CurriculumStep } from './runner';

export type WorkerRequest = PlayJob & { control: SharedArrayBuffer };
export type WorkerMessage =
  { type: 'batch'; steps: CurriculumStep[] } | { type: 'done' } | { type: 'error'; message: string };

const CANCEL = 0;
const WRITTEN = 1;

async function play(job: WorkerRequest, post: (m: WorkerMessage) => void): Promise<void> {
  const control = new Int32Array(job.control);
  const cancelled = () => Atomics.load(control, CANCEL) !== 0;
  // the flag is read after every episode, and polled while a model's turn is in flight (aborting it)
  const abort = new AbortController();
  const checkCancel = async () => void (cancelled() && abort.abort());
  const poll = setInterval(checkCancel, 200);
  let sent = 0;
  const send = (steps: CurriculumStep[]) => {
    post({ type: 'batch', steps });
    sent++;
    // wait until the parent has written all but the batch just sent (or asks to stop)
    for (
      let seen = Atomics.load(control, WRITTEN);
      seen < sent - 1 && !cancelled();
      seen = Atomics.load(control, WRITTEN)
    )
      Atomics.wait(control, WRITTEN, seen, 1000);
  };
  try {
    await playEpisodes(job, getCatalog(job.catalogId), {
      signal: abort.signal,
      onBatch: send,
      afterEpisode: checkCancel,
    });
  } finally {
    clearInterval(poll);
  }
}

parentPort?.on('message', (job: WorkerRequest) => {
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  play(job, post).then(
    () => post({ type: 'done' }),
    (e: Error) => post({ type: 'error', message: e.message }),
  );
});
