// bench:abuse's serve:env part (issue 29): one WebSocket floods 5,000 `state` frames while another
// client asks /health every 25 ms (its p50/p99 during the flood), and 64 idle sessions from one
// address fill the server while a second address asks for a place. The real serve:env entry
// point in a child process (persistence off), on loopback.
import http from 'node:http';
import WebSocket from 'ws';
import { spawnEnvServer } from '@/server/env-server/test/spawn';

const pct = (xs: number[], p: number) =>
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

function socket(port: number, localAddress = '127.0.0.1') {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { localAddress });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return { ws, closed, open: new Promise((r, e) => (ws.once('open', r), ws.once('error', e))) };
}

export async function envServerAbuse(): Promise<void> {
  const spawned = await spawnEnvServer(['--persist', 'off', '--max-sessions', '64']);
  const server = { port: Number(new URL(spawned.url).port) };
  try {
    // one socket's flood against another client's /health
    const flood = socket(server.port);
    await flood.open;
    await new Promise((r) => (flood.ws.once('message', r), flood.ws.send('{"type":"reset","data":{"env":"PD"}}')));
    const FRAMES = 5000;
    let answered = 0;
    const done = new Promise<void>((r) => flood.ws.on('message', () => ++answered === FRAMES && r()));
    const t0 = performance.now();
    for (let i = 0; i < FRAMES; i++) flood.ws.send('{"type":"state"}');
    const beats: number[] = [];
    let flooding = true;
    void done.then(() => (flooding = false));
    while (flooding) {
      beats.push(await healthMs(server.port));
      await new Promise((r) => setTimeout(r, 25));
    }
    console.log(
      `  serve:env: 5,000 state frames on one socket (answered in ${Math.round(performance.now() - t0)} ms); another client's /health every 25 ms: ${beats.length} requests, p50 ${pct(beats, 50).toFixed(0)} ms, p99 ${pct(beats, 99).toFixed(0)} ms   target p99 < 200`,
    );
    flood.ws.close();
    await flood.closed;

    // 64 idle sessions from one address, then a second address
    const hog = Array.from({ length: 64 }, () => socket(server.port));
    await Promise.all(hog.map((h) => h.open));
    const other = socket(server.port, '127.0.0.2');
    await other.open;
    const got = await Promise.race([
      new Promise<string>((r) => {
        other.ws.once('message', (m) => r(JSON.parse(m.toString()).type));
        other.ws.send('{"type":"reset","data":{"env":"PD"}}');
      }),
      other.closed.then((code) => `closed ${code}`),
    ]);
    await new Promise((r) => setTimeout(r, 200)); // the close frames arrive
    const evicted = hog.filter((h) => h.ws.readyState === WebSocket.CLOSED).length;
    console.log(
      `  serve:env: 64 idle sessions from 127.0.0.1 (--max-sessions 64), then 127.0.0.2 resets: ${got === 'observation' ? 'served' : got}; the first address lost ${evicted} session(s) (close 1013)`,
    );
    for (const h of [...hog, other]) h.ws.close();
  } finally {
    await spawned.stop();
  }
}
