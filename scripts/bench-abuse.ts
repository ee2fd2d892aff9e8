// The abusive requests against `next start` (its own database) while a heartbeat
// request runs every 25 ms from a separate thread: how long each took, its status, the heartbeat's p50/p99 during the
// abuse, and the server's RSS before and after. Needs `next build` first.
//   npm run bench:abuse [-- --port 3104] [--env-only: serve:env's part only, no build needed]
import fs from 'node:fs';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { MAX_ACTION_BYTES } from '@/server/episodes/inputs';
import { LOGIN_LIMITS } from '@/server/auth/login-throttle';
import { MAX_ACTION_DEPTH } from '@/server/lib/action-value';
import { envServerAbuse, envServerBudgets } from './bench-abuse-env';
import { serverCpuSeconds, serverMemorySplitMb, serverRssMb, withNextServer } from './next-server';

const PORT = Number(process.argv[process.argv.indexOf('--port') + 1]) || 3104;
const BASE = `http://127.0.0.1:${PORT}`;
const DB = 'prisma/bench-abuse.db';
// Short idle times, so the bench sees the memory come back: a loaded non-default catalog and the
// idle curriculum worker go after 10 s here (defaults: 600 s and 60 s; docs/security.md).
process.env.ECOMRLVE_CATALOG_IDLE_S ??= '10';
process.env.ECOMRLVE_WORKER_IDLE_S ??= '10';
const SETTLE_MS =
  (Math.max(Number(process.env.ECOMRLVE_CATALOG_IDLE_S), Number(process.env.ECOMRLVE_WORKER_IDLE_S)) + 8) * 1000;
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

/**
 * A POST with a declared length that resolves as soon as the server answers, as curl does
 * (fetch reports a server that answers and closes mid-upload only as "fetch failed").
 */
function earlyAnswer(path: string, body: Uint8Array): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true; // stop uploading: the answer is in
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode }));
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', (e) => (answered ? undefined : reject(e))); // the server closing after its answer
    const step = 1024 * 1024;
    const write = (at: number): void => {
      if (answered || req.destroyed) return;
      if (at >= body.length) return void req.end();
      if (req.write(body.subarray(at, at + step))) setImmediate(write, at + step);
      else req.once('drain', () => write(at + step));
    };
    write(0);
  });
}

/** A request with headers fetch will not send as given (Host). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode })));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An episode started through tRPC, and a seat.step with its token whose body is `actionJson` as text. */
async function stepWith(actionJson: string): Promise<Response> {
  const started = (await (await post('seat.start', JSON.stringify({ envId: 'CART', d: 1 }))).json()) as {
    result: { data: { episode: { id: string }; capabilityToken: string } };
  };
  const { episode, capabilityToken } = started.result.data;
  return post('seat.step', `{"id":${JSON.stringify(episode.id)},"action":${actionJson}}`, {
    'x-episode-token': capabilityToken,
  });
}

const search = (args: string) =>
  `{"assistant_message":"Searching.","tool_calls":[{"name":"catalog.search","args":${args}}],"answer":null}`;

/** Waits until the server uses under 5 % of a core over half a second (at most 60 s); returns the wait in ms. */
async function serverIdle(port: number): Promise<number> {
  const t0 = performance.now();
  for (let cpu = serverCpuSeconds(port); performance.now() - t0 < 60_000;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = serverCpuSeconds(port);
    if (now - cpu < 0.025) break;
    cpu = now;
  }
  return performance.now() - t0;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function main() {
  await withNextServer(PORT, DB, async () => {
    await post('seat.start', JSON.stringify({ envId: 'CART', d: 2 })); // warm: default catalog loaded
    // warm the routes the abuse reaches (a route's first request loads and compiles its modules:
    // 0.6–1.2 s of one beat under load, once per server start, whatever the request)
    await fetch(`${BASE}/api/trpc/envs.list`).then((r) => r.text());
    await post('seat.start', JSON.stringify({ envId: 'PD', d: 0, catalogId: 'nope' })).then((r) => r.text());
    await fetch(`${BASE}/play/x`, { method: 'POST', body: 'x' }).then((r) => r.text());
    // Next loads its route modules in the background for seconds after "Ready" (4.8 s of CPU in a
    // profile at load 17): measured from a settled server, not its start-up.
    const settled = await serverIdle(PORT);
    const rssStart = serverRssMb(PORT);
    const splitStart = serverMemorySplitMb(PORT);

    // The heartbeat runs in its own thread: building and sending a 300 MB body blocks this
    // thread's event loop, which would delay the heartbeat here and blame the server for it.
    const heartbeat = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       let beating = true;
       parentPort.on('message', () => { beating = false; });
       (async () => {
         const beats = [];
         await fetch(workerData.url).then((r) => r.text()); // this thread's fetch starts up: not a beat
         while (beating) {
           const at = Date.now();
           const t = performance.now();
           // a failed beat is recorded (as -1) rather than ending the heartbeat
           const ok = await fetch(workerData.url).then((r) => r.text().then(() => r.ok), () => false);
           beats.push([at, ok ? performance.now() - t : -1]);
           await new Promise((r) => setTimeout(r, 25));
         }
         parentPort.postMessage(beats);
       })();`,
      { eval: true, workerData: { url: `${BASE}/api/trpc/envs.list` } },
    );
    const big = new Uint8Array(300 * 1024 * 1024); // allocated before the clock starts

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
      ['300 MB POST with Content-Length (tRPC)', () => earlyAnswer('/api/trpc/seat.step', big)],
      ['300 MB POST with Content-Length (a page)', () => earlyAnswer('/play/x', big)],
      [
        '300 MB chunked POST to a page (no length)',
        () =>
          fetch(`${BASE}/play/x`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: hugeStream(300 * 1024 * 1024) as unknown as BodyInit,
            duplex: 'half',
          } as RequestInit),
      ],
      [
        '300 MB chunked POST to tRPC (no length)',
        () => post('seat.step', hugeStream(300 * 1024 * 1024) as unknown as BodyInit),
      ],
      // issue 29's classes: each refused at once with a 4xx, nothing stored
      [
        'GET with a body on the export route (skips proxy.ts)',
        () => rawRequest('GET', '/api/inspector/export?ids=x', { 'content-length': '1' }, 'x'),
      ],
      [
        'foreign Host (DNS rebinding): GET / with Host rebound.example',
        () => rawRequest('GET', '/', { host: 'rebound.example' }),
      ],
      [
        'foreign Host with a body (skips proxy.ts): POST / with Host rebound.example',
        () => rawRequest('POST', '/', { host: 'rebound.example', 'content-type': 'text/plain' }, 'x'),
      ],
      [
        'cross-site text/plain POST to the playground seat.step (/play/x/trpc, auth off)',
        () =>
          rawRequest(
            'POST',
            '/play/x/trpc/seat.step',
            { 'content-type': 'text/plain', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
            '{"action":"hi"}',
          ),
      ],
      ['1e309 in a tool argument (seat.step)', () => stepWith(search('{"query":"lamp","limit":1e309}'))],
      ['lone surrogate in a tool argument (seat.step)', () => stepWith(search('{"query":"l\\ud800mp"}'))],
      [
        '100k-deep nesting in a tool argument (seat.step)',
        () => stepWith(search(`{"query":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)),
      ],
      [
        'reset with an existing episode_id (/api/env/reset twice)',
        async () => {
          const body = JSON.stringify({ env: 'PD', episode_id: `bench-abuse-${Date.now()}` });
          const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
          await (await fetch(`${BASE}/api/env/reset`, init)).text();
          return fetch(`${BASE}/api/env/reset`, init);
        },
      ],
      [
        'curriculum.step {episodes: 1000} (worker thread; cancelled)',
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
    // the bounds these requests meet (docs/security.md, "Bounds")
    console.log(
      `bounds: an action ≤ ${MAX_ACTION_BYTES} bytes, nesting ≤ ${MAX_ACTION_DEPTH} levels, finite numbers, no lone surrogates; admin sign-in ${LOGIN_LIMITS.perAddress} wrong tokens per address and ${LOGIN_LIMITS.overall} overall per ${LOGIN_LIMITS.windowMs / 1000} s, then 429; Host: loopback, the bound address, ECOMRLVE_PUBLIC_HOSTS; apiKeyEnv: *_API_KEY or ECOMRLVE_MODEL_KEY_VARS; redirects from model endpoints not followed`,
    );
    console.log(
      `bench:abuse against next start on :${PORT} (load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}; the server settled ${(settled / 1000).toFixed(1)} s after its first requests)`,
    );
    // RSS sampled every 100 ms: the peak is what the abuse cost at its worst.
    let rssPeak = rssStart;
    const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, serverRssMb(PORT) || 0)), 100);
    const spans: Array<[string, number, number]> = [];
    for (const [name, run] of abuses) {
      const t = performance.now();
      const from = Date.now();
      let status: number | string;
      try {
        const res = await run();
        status = res.status;
        await res.text();
      } catch (e) {
        status = `closed (${(e as Error).message})`;
      }
      console.log(`  ${name.padEnd(62)} ${String(status).padEnd(6)} ${Math.round(performance.now() - t)} ms`);
      spans.push([name, from, Date.now()]);
    }
    const abuseEnd = Date.now();

    // A 1000-episode curriculum as the page's Play starts it (episodes stored), played in a
    // worker thread while the heartbeat goes on.
    const created = (await (
      await post('curriculum.create', JSON.stringify({ collection: 'ALL', seed: 2 }))
    ).json()) as { result: { data: { id: string } } };
    const runId = created.result.data.id;
    const t0 = performance.now();
    await post('curriculum.start', JSON.stringify({ id: runId, episodes: 1000, agent: 'oracle' }));
    let progress = { status: 'running', played: 0 };
    while (progress.status === 'running' && performance.now() - t0 < 300_000) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        const res = await fetch(
          `${BASE}/api/trpc/curriculum.progress?input=${encodeURIComponent(JSON.stringify({ id: runId }))}`,
        );
        progress = ((await res.json()) as { result: { data: typeof progress } }).result.data;
      } catch (e) {
        console.log(`  progress poll failed: ${(e as Error).message}; polling on`);
      }
    }
    const curriculumEnd = Date.now();
    console.log(
      `  ${'curriculum.start {episodes: 1000} (stored, worker thread)'.padEnd(62)} ${progress.status.padEnd(6)} ${Math.round(performance.now() - t0)} ms, ${progress.played} episodes`,
    );

    const beats = await new Promise<Array<[number, number]>>((resolve) => {
      heartbeat.once('message', resolve);
      heartbeat.postMessage('stop');
    });
    await heartbeat.terminate();
    clearInterval(rssSampler);
    const rssAfter = serverRssMb(PORT);
    // Settling: idle catalogs and the idle curriculum worker go after their idle times
    // (ECOMRLVE_CATALOG_IDLE_S, set short for this bench below); then RSS is read again.
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rssSettled = serverRssMb(PORT);
    const splitSettled = serverMemorySplitMb(PORT);
    const failed = beats.filter(([, ms]) => ms < 0);
    if (failed.length)
      console.log(
        `  heartbeat FAILED ${failed.length} times, at ${failed.map(([at]) => new Date(at).toISOString().slice(11, 23)).join(', ')}`,
      );
    const during = (from: number, to: number) =>
      beats.filter(([at, ms]) => at >= from && at < to && ms >= 0).map(([, ms]) => ms);
    // Which request held the heartbeat: the slowest beat that started while each abuse ran.
    for (const [name, from, to] of spans) {
      const ms = during(from, to);
      if (ms.length)
        console.log(
          `  heartbeat during ${name.slice(0, 50).padEnd(50)} ${ms.length} beats, max ${Math.max(...ms).toFixed(0)} ms`,
        );
    }
    for (const [what, ms] of [
      ['the abusive requests', during(0, abuseEnd)],
      ['the 1000-episode curriculum', during(abuseEnd, curriculumEnd)],
    ] as const) {
      console.log(
        `heartbeat (envs.list every 25 ms) during ${what}: ${ms.length} requests, p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms   target p99 < 200`,
      );
    }
    console.log(
      `server RSS: ${rssStart.toFixed(0)} MB at start, peak ${rssPeak.toFixed(0)} MB, ${rssAfter.toFixed(0)} MB right after, ${rssSettled.toFixed(0)} MB after settling ${SETTLE_MS / 1000} s   target: within 100 MB of the start`,
    );
    const split = (m: ReturnType<typeof serverMemorySplitMb>) =>
      m
        ? `file ${m.file.toFixed(0)}, malloc heap ${m.mallocHeap.toFixed(0)}, other anonymous ${m.otherAnon.toFixed(0)}`
        : '?';
    console.log(`  RSS at start: ${split(splitStart)} MB; after settling: ${split(splitSettled)} MB`);
  });
}

// serve:env's part (bench-abuse-env.ts) after the app's; `-- --env-only` runs it alone
(process.argv.includes('--env-only') ? Promise.resolve() : main())
  .then(() => {
    console.log('serve:env (a child process, persistence off):');
    return envServerAbuse();
  })
  .then(() => {
    console.log('serve:env exposed (its budgets and an admin token set; persistence on):');
    return envServerBudgets();
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
