// bench:abuse's serve:env part (issue 29): one WebSocket floods 5,000 `state` frames, then 300 of
// 200 KB, while another client asks /health every 25 ms (its p50/p99 during the flood,
// server/env-server/test/flood.ts), and 64 idle sessions from one
// address fill the server while a second address asks for a place. The real serve:env entry
// point in a child process (persistence off), on loopback.
import WebSocket from 'ws';
import { measureFlood, pct } from '@/server/env-server/test/flood';
import { spawnEnvServer } from '@/server/env-server/test/spawn';

function socket(port: number, localAddress = '127.0.0.1') {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { localAddress });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return { ws, closed, open: new Promise((r, e) => (ws.once('open', r), ws.once('error', e))) };
}

export async function envServerAbuse(): Promise<void> {
  const spawned = await spawnEnvServer(['--persist', 'off', '--max-sessions', '64']);
  const server = { port: Number(new URL(spawned.url).port) };
  try {
    // one socket's flood (from a worker thread) against another client's /health every 25 ms
    for (const [what, frames, frame] of [
      ['5,000 `state` frames', 5000, '{"type":"state"}'],
      ['300 `state` frames of 200 KB', 300, JSON.stringify({ type: 'state', pad: 'x'.repeat(200_000) })],
    ] as const) {
      const f = await measureFlood(server.port, frames, frame);
      console.log(
        `  serve:env: ${what} on one socket (answered in ${Math.round(f.floodMs)} ms); another client's /health: unflooded p99 ${pct(f.baseline, 99).toFixed(0)} ms; during the flood ${f.flooded.length} requests, p50 ${pct(f.flooded, 50).toFixed(0)} ms, p99 ${pct(f.flooded, 99).toFixed(0)} ms   target p99 < 200`,
      );
    }

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
