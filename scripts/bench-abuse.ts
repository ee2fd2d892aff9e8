// The abusive requests against `next start` (its own database) while a heartbeat
// request runs every 25 ms: how long each took, its status, the heartbeat's p50/p99 during the
// abuse, and the server's RSS before and after. Needs `next build` first.
//   npm run bench:abuse [-- --port 3104]
import fs from 'node:fs';
import { serverRssMb, withNextServer } from './next-server';

const PORT = Number(process.argv[process.argv.indexOf('--port') + 1]) || 3104;
const BASE = `http://127.0.0.1:${PORT}`;
const DB = 'prisma/bench-abuse.db';
const post = (proc: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${BASE}/api/trpc/${proc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);

function hugeStream(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024).fill(120);
  let sent = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (sent >= bytes) return ctrl.close();
      ctrl.enqueue(chunk);
      sent += chunk.length;
    },
  });
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function main() {
  await withNextServer(PORT, DB, async () => {
    await post('seat.start', JSON.stringify({ envId: 'CART', d: 2 })); // warm: default catalog loaded
    const rssStart = serverRssMb(PORT);

    const beats: number[] = [];
    let beating = true;
    const heartbeat = (async () => {
      while (beating) {
        const t = performance.now();
        await fetch(`${BASE}/api/trpc/envs.list`).then((r) => r.text());
        beats.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    const abuses: Array<[string, () => Promise<Response>]> = [
      [
        'synthetic catalog id outside the registry (synthetic-s7-n2000000)',
        () => post('seat.start', JSON.stringify({ envId: 'PD', d: 0, catalogId: 'synthetic-s7-n2000000' })),
      ],
      [
        'leading-zero alias (synthetic-s01-n20000)',
        () => post('seat.start', JSON.stringify({ envId: 'PD', d: 0, catalogId: 'synthetic-s01-n20000' })),
      ],
      [
        'unprepared preset (synthetic-s1-n2000000, unless prepared)',
        () => post('seat.start', JSON.stringify({ envId: 'PD', d: 0, catalogId: 'synthetic-s1-n2000000' })),
      ],
      [
        'axis overrides top_k 1e9, B_tool 100',
        () => post('seat.start', JSON.stringify({ envId: 'PD', d: 0, axisOverrides: { top_k: 1e9, B_tool: 100 } })),
      ],
      ['300 MB POST with Content-Length', () => post('seat.step', new Uint8Array(300 * 1024 * 1024), {})],
      [
        '300 MB chunked POST (no length)',
        () => post('seat.step', hugeStream(300 * 1024 * 1024) as unknown as BodyInit),
      ],
      [
        'curriculum.step {episodes: 1000} (yields; then cancelled)',
        async () => {
          const run = (await (
            await post('curriculum.create', JSON.stringify({ collection: 'C1', seed: 1 }))
          ).json()) as { result: { data: { id: string } } };
          const id = run.result.data.id;
          const step = post(
            'curriculum.step',
            JSON.stringify({ id, episodes: 1000, agent: 'oracle', storeEpisodes: false }),
          );
          await new Promise((r) => setTimeout(r, 500));
          await post('curriculum.cancel', JSON.stringify({ id }));
          return step;
        },
      ],
    ];
    console.log(
      `bench:abuse against next start on :${PORT} (load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`,
    );
    for (const [name, run] of abuses) {
      const t = performance.now();
      let status: number | string;
      try {
        const res = await run();
        status = res.status;
        await res.text();
      } catch (e) {
        status = `closed (${(e as Error).message})`;
      }
      console.log(`  ${name.padEnd(62)} ${String(status).padEnd(6)} ${Math.round(performance.now() - t)} ms`);
    }
    beating = false;
    await heartbeat;
    if (global.gc) global.gc();
    await new Promise((r) => setTimeout(r, 2000));
    const rssEnd = serverRssMb(PORT);
    console.log(
      `heartbeat (envs.list every 25 ms during the abuse): ${beats.length} requests, p50 ${pct(beats, 50).toFixed(0)} ms, p99 ${pct(beats, 99).toFixed(0)} ms   target p99 < 200`,
    );
    console.log(
      `server RSS: ${rssStart.toFixed(0)} MB at start, ${rssEnd.toFixed(0)} MB after   target: within 100 MB`,
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
