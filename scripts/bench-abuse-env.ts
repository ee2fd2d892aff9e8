// bench:abuse's serve:env part (issue 29): one WebSocket floods 5,000 `state` frames, then 300 of
// 200 KB, while another client asks /health every 25 ms (its p50/p99 during the flood,
// server/env-server/test/flood.ts), and 64 idle sessions from one
// address fill the server while a second address asks for a place. The real serve:env entry
// point in a child process (persistence off), on loopback.
import WebSocket from 'ws';
import { measureFlood, pct } from '@/server/env-server/test/flood';
import http from 'node:http';
import Database from 'better-sqlite3';
import { sqliteFile } from '@/server/db/path';
import { migratedTempDatabase, spawnEnvServer } from '@/server/env-server/test/spawn';

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

/** serve:env exposed to clients it counts: admin guesses, writes a minute, stored bytes a day. */
export async function envServerBudgets(): Promise<void> {
  const db = migratedTempDatabase();
  const QUOTA_MB = 1;
  const spawned = await spawnEnvServer(['--persist', 'on'], {
    DATABASE_URL: db.url,
    ECOMRLVE_ADMIN_TOKEN: 'bench-abuse-admin',
    ECOMRLVE_CLIENT_WRITES_PER_MIN: '300',
    ECOMRLVE_CLIENT_STORED_MB_PER_DAY: String(QUOTA_MB),
  });
  const url = spawned.url;
  try {
    const firstRefused = async (send: (i: number) => Promise<Response>, max: number) => {
      for (let i = 1; i <= max; i++) {
        const r = await send(i);
        if (r.status === 429 || r.status === 413)
          return { at: i, status: r.status, code: (await r.json()).error?.code };
        await r.arrayBuffer();
      }
      return { at: NaN, status: 0, code: 'never' };
    };
    const guess = await firstRefused(
      (i) => fetch(`${url}/state?episode_id=x`, { headers: { authorization: `Bearer guess-${i}` } }),
      50,
    );
    console.log(
      `  serve:env: admin tokens guessed as a bearer: guess ${guess.at} refused ${guess.status} ${guess.code}   bound: 10 a minute per address`,
    );
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // writes with big tool results until the storage quota, then the rate (the window is a minute)
    let episode = { id: '', token: '' };
    const stored = await firstRefused(async (i) => {
      if (i % 5 === 1) {
        const r = await post('/reset', { env: 'PD' });
        const body = (await r.clone().json()) as { observation?: { metadata?: { episode_id: string; token: string } } };
        episode = { id: body.observation?.metadata?.episode_id ?? '', token: body.observation?.metadata?.token ?? '' };
        return r;
      }
      return post('/step', {
        episode_id: episode.id,
        token: episode.token,
        action: {
          assistant_message: 'x',
          tool_calls: [{ name: 'catalog.search', args: { query: `lamp ${i}` } }],
        },
      });
    }, 290);
    const sqlite = new Database(sqliteFile(db.url)!, { readonly: true });
    const n = (sql: string) => (sqlite.prepare(sql).get() as { n: number | null }).n ?? 0;
    const kb =
      (n('select sum(length(hiddenGoal) + length(axes)) n from Episode') +
        n('select sum(length(payload)) n from EpisodeEvent') +
        n('select sum(length(raw)) n from EpisodeAction')) /
      1024;
    sqlite.close();
    console.log(
      `  serve:env: one client's writes (a reset, then four searches): write ${stored.at} refused ${stored.status} ${stored.code}; stored in the database ${kb.toFixed(0)} KB   bound: ${QUOTA_MB * 1024} KB a day`,
    );
    // another address: refused resets (422) count as writes and store nothing
    const from2 = (body: string) =>
      new Promise<Response>((resolve, reject) =>
        http
          .request(
            `${url}/reset`,
            { method: 'POST', localAddress: '127.0.0.2', headers: { 'content-type': 'application/json' } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode })));
            },
          )
          .on('error', reject)
          .end(body),
      );
    const rate = await firstRefused(() => from2('{"env":"NOPE"}'), 400);
    console.log(
      `  serve:env: writes a minute from 127.0.0.2: write ${rate.at} refused ${rate.status} ${rate.code}   bound: 300 a minute (ECOMRLVE_CLIENT_WRITES_PER_MIN)`,
    );
  } finally {
    await spawned.stop();
    db.remove();
  }
}
