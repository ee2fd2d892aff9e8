// One WebSocket's flood against another client's /health (issue 29), measured as a client would:
// the flood runs in a worker thread (its socket, framing and answers never share this thread's
// event loop), while this thread asks /health every 25 ms: once with no flood (the baseline: what
// the machine's load alone costs) and once during the flood. Used by ws-flood.test.ts and bench:abuse.
import http from 'node:http';
import { Worker } from 'node:worker_threads';

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;

const healthMs = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const t = performance.now();
    http
      .get({ host: '127.0.0.1', port, path: '/health' }, (res) =>
        res.resume().on('end', () => resolve(performance.now() - t)),
      )
      .on('error', reject);
  });

const FLOODER = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('ws');
const ws = new WebSocket('ws://127.0.0.1:' + workerData.port + '/ws');
let answered = 0;
ws.once('open', () => {
  ws.send(JSON.stringify({ type: 'reset', data: { env: 'PD', seed: 1 } }));
  ws.once('message', () => ws.once('message', () => {
    // the reset and one frame of the kind done: first-use costs (indexes, code paths) are paid
    parentPort.postMessage('flooding');
    ws.on('message', () => {
      if (++answered === workerData.frames) { parentPort.postMessage('done'); ws.close(); }
    });
    for (let i = 0; i < workerData.frames; i++) ws.send(workerData.frame);
  }));
  ws.send(workerData.frame);
});
ws.on('error', (e) => parentPort.postMessage('error: ' + e.message));
`;

export interface FloodFigures {
  /** /health times (ms) with no flood, then during the flood */
  baseline: number[];
  flooded: number[];
  floodMs: number;
}

async function beatsWhile(port: number, going: () => boolean, min: number): Promise<number[]> {
  const beats: number[] = [];
  while (going() || beats.length < min) {
    beats.push(await healthMs(port));
    await new Promise((r) => setTimeout(r, 25));
  }
  return beats;
}

/** `frames` copies of `frame` sent at once on one socket, after a reset. */
export async function measureFlood(port: number, frames = 5000, frame = '{"type":"state"}'): Promise<FloodFigures> {
  await healthMs(port); // the connection path warms up: not a beat
  const baseline = await beatsWhile(port, () => false, 40);
  const worker = new Worker(FLOODER, { eval: true, workerData: { port, frames, frame } });
  let flooding = false;
  let done = false;
  let t0 = 0;
  const finished = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: string) => {
      if (m === 'flooding') {
        flooding = true;
        t0 = performance.now();
      } else if (m === 'done') {
        done = true;
        resolve();
      } else reject(new Error(m));
    });
    worker.on('error', reject);
  });
  while (!flooding) await new Promise((r) => setTimeout(r, 1));
  const flooded = await beatsWhile(port, () => !done, 0);
  await finished;
  const floodMs = performance.now() - t0;
  await worker.terminate();
  return { baseline, flooded, floodMs };
}
