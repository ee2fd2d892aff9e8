// Steps/s and creations/s through the HTTP layer (`next start`, its own database): creations via
// tRPC seat.start, steps through tRPC seat.step as the playground sends them (under
// /play/<id>/trpc) and at /api/trpc; response sizes and the server's CPU per request. Needs
// `next build` first.
//   npm run bench:web [-- --seconds 10 --clients 8 --port 3102 --rounds 3]
import fs from 'node:fs';
import { serverCpuSeconds, withNextServer } from './next-server';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 8);
const CLIENTS = arg('clients', 8);
const PORT = arg('port', 3102);
const ROUNDS = arg('rounds', 3);
const BASE = `http://127.0.0.1:${PORT}`;
const DB = 'prisma/bench-web.db';

const CHAT = { assistant_message: 'Could you tell me more?', tool_calls: [], answer: null };

async function call<T>(
  proc: string,
  input: unknown,
  headers: Record<string, string> = {},
  endpoint = '/api/trpc',
): Promise<{ data: T; bytes: number }> {
  const res = await fetch(`${BASE}${endpoint}/${proc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${proc}: ${res.status} ${text.slice(0, 200)}`);
  return { data: (JSON.parse(text) as { result: { data: T } }).result.data, bytes: text.length };
}

interface Started {
  episode: { id: string; status: string };
  capabilityToken: string;
}

let lastCreations = 0;
async function creations(): Promise<number> {
  let n = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (performance.now() < end) {
        await call<Started>('seat.start', { envId: 'CART', d: 4, seed: c * 100_000 + n });
        n++;
      }
    }),
  );
  lastCreations = n;
  return n / SECONDS;
}

type StepVia = 'playground' | 'trpc';

/** One step as the playground sends it (/play/<id>/trpc) or at /api/trpc; returns the status and the answer's size. */
async function stepOnce(via: StepVia, id: string, token: string): Promise<{ status: string; bytes: number }> {
  const endpoint = via === 'playground' ? `/play/${id}/trpc` : '/api/trpc';
  const r = await call<{ status: string }>('seat.step', { id, action: CHAT }, { 'x-episode-token': token }, endpoint);
  return { status: r.data.status, bytes: r.bytes };
}

async function steps(via: StepVia): Promise<{ perSec: number; meanBytes: number; count: number }> {
  let n = 0;
  let bytes = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      let seed = c * 1000;
      while (performance.now() < end) {
        // a long episode (T_max 40), stepped with short chat turns until it ends or time is up
        const s = await call<Started>('seat.start', {
          envId: 'CART',
          d: 4,
          seed: seed++,
          axisOverrides: { T_max: 40 },
        });
        let status = s.data.episode.status;
        while (status === 'active' && performance.now() < end) {
          const r = await stepOnce(via, s.data.episode.id, s.data.capabilityToken);
          status = r.status;
          bytes += r.bytes;
          n++;
        }
      }
    }),
  );
  return { perSec: n / SECONDS, meanBytes: n ? bytes / n : 0, count: n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  await withNextServer(PORT, DB, async () => {
    await creations(); // warm-up: JIT, catalog load, SQLite pages
    const c: number[] = [];
    const cpuPerCreation: number[] = [];
    const by = {
      playground: { s: [] as number[], b: [] as number[], cpu: [] as number[] },
      trpc: { s: [] as number[], b: [] as number[], cpu: [] as number[] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      let cpu = serverCpuSeconds(PORT);
      c.push(await creations());
      cpuPerCreation.push(((serverCpuSeconds(PORT) - cpu) * 1000) / lastCreations);
      for (const via of ['playground', 'trpc'] as const) {
        cpu = serverCpuSeconds(PORT);
        const st = await steps(via);
        // the steps phase also starts its episodes; counted against the steps (an upper bound per step)
        by[via].cpu.push(((serverCpuSeconds(PORT) - cpu) * 1000) / st.count);
        by[via].s.push(st.perSec);
        by[via].b.push(st.meanBytes);
      }
    }
    const { s, b, cpu: cpuPerStep } = by.playground;
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `bench:web  ${CLIENTS} clients, ${SECONDS} s per measurement, ${ROUNDS} rounds (median), next start on :${PORT}`,
    );
    console.log(
      `creations/s  ${median(c).toFixed(1)}   (rounds: ${c.map((x) => x.toFixed(1)).join(', ')})   target ≥ 100`,
    );
    console.log(
      `steps/s      ${median(s).toFixed(1)}   (rounds: ${s.map((x) => x.toFixed(1)).join(', ')})   target ≥ 300   seat.step under /play/<id>/trpc (the playground's)`,
    );
    const t = by.trpc;
    console.log(
      `  /api/trpc  ${median(t.s).toFixed(1)}   (rounds: ${t.s.map((x) => x.toFixed(1)).join(', ')})   seat.step, ${median(t.cpu).toFixed(1)} ms server CPU per step`,
    );
    console.log(`step response  ${Math.round(median(b))} bytes on average`);
    console.log(
      `server CPU     ${median(cpuPerCreation).toFixed(1)} ms per creation, ${median(cpuPerStep).toFixed(1)} ms per step`,
    );
    console.log(
      `               → one free core would give ≈ ${(1000 / median(cpuPerCreation)).toFixed(0)} creations/s, ${(1000 / median(cpuPerStep)).toFixed(0)} steps/s (load average now ${load} on ${(await import('node:os')).cpus().length} cores)`,
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
