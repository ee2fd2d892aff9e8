// The curriculum's worker thread: plays a job's episodes with the pure engine and posts them
// back in batches (server/curriculum/worker-player.ts is the other side). Loads no database and
// nothing of Next; its catalog is its own copy from the registry (server/catalogs.ts).
// Control words shared with the parent: [0] cancel (1 = stop after this episode),
// [1] batches the parent has written (the worker stays at most one batch ahead).
import { parentPort } from 'node:worker_threads';
import { getCatalog } from '@/server/catalogs';
import { findAgent } from './agents';
import type { PlayJob } from './player';
import { playCurriculumEpisode, type CurriculumStep } from './runner';

export type WorkerRequest = PlayJob & { control: SharedArrayBuffer };
export type WorkerMessage =
  { type: 'batch'; steps: CurriculumStep[] } | { type: 'done' } | { type: 'error'; message: string };

const CANCEL = 0;
const WRITTEN = 1;

function play(job: WorkerRequest, post: (m: WorkerMessage) => void): void {
  const control = new Int32Array(job.control);
  const cancelled = () => Atomics.load(control, CANCEL) !== 0;
  const agent = findAgent(job.agent);
  if (!agent) throw new Error(`unknown agent "${job.agent}"`);
  const catalog = getCatalog(job.catalogId);
  let state = job.state;
  let batch: CurriculumStep[] = [];
  let sent = 0;
  const send = () => {
    post({ type: 'batch', steps: batch });
    batch = [];
    sent++;
    // wait until the parent has written all but the batch just sent (or asks to stop)
    for (
      let seen = Atomics.load(control, WRITTEN);
      seen < sent - 1 && !cancelled();
      seen = Atomics.load(control, WRITTEN)
    )
      Atomics.wait(control, WRITTEN, seen, 1000);
  };
  for (let i = 0; i < job.episodes && !cancelled(); i++) {
    const step = playCurriculumEpisode({
      state,
      runSeed: job.runSeed,
      agent,
      catalog,
      playable: job.playable,
      at: new Date().toISOString(),
    });
    state = step.outcome.state;
    batch.push(step);
    if (batch.length >= job.batchSize) send();
  }
  if (batch.length > 0) send();
}

parentPort?.on('message', (job: WorkerRequest) => {
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  try {
    play(job, post);
    post({ type: 'done' });
  } catch (e) {
    post({ type: 'error', message: (e as Error).message });
  }
});
