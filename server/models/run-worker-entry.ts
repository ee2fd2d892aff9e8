// A batch run's worker thread: plays the run's episodes (run-play.ts) and posts them back in
// batches; run-player.ts is the other side. Loads no database and nothing of Next; its catalog
// is its own copy from the registry (server/catalogs.ts). API keys never cross the thread
// boundary: a connection names its key's environment variable, read here from the worker's
// copy of the server's environment when a request is sent.
// Messages from the parent: the job, then 'written' after each batch is stored (the worker
// stays at most one batch ahead) and 'cancel' (no new episode; the ones in hand stop after
// their current turn, an in-flight model request is aborted).
import { parentPort } from 'node:worker_threads';
import { getCatalog } from '@/server/catalogs';
import { playRunCells, type PlayedRunEpisode, type RunJob } from './run-play';

export type RunWorkerRequest = { type: 'job'; job: RunJob } | { type: 'written' } | { type: 'cancel' };
export type RunWorkerMessage =
  { type: 'batch'; episodes: PlayedRunEpisode[] } | { type: 'done' } | { type: 'error'; message: string };

const cancel = new AbortController();
let written = 0;
let wakeWriter: (() => void) | null = null;

async function play(job: RunJob, post: (m: RunWorkerMessage) => void): Promise<void> {
  let sent = 0;
  await playRunCells(job, getCatalog(job.catalogId), cancel.signal, async (episodes) => {
    post({ type: 'batch', episodes });
    sent++;
    while (written < sent - 1 && !cancel.signal.aborted) await new Promise<void>((r) => (wakeWriter = r));
  });
}

parentPort?.on('message', (m: RunWorkerRequest) => {
  const post = (msg: RunWorkerMessage) => parentPort!.postMessage(msg);
  if (m.type === 'job')
    play(m.job, post).then(
      () => post({ type: 'done' }),
      (e: Error) => post({ type: 'error', message: e.message }),
    );
  else {
    if (m.type === 'written') written++;
    else cancel.abort();
    wakeWriter?.();
    wakeWriter = null;
  }
});
