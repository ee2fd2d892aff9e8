// npm run bench:sessions [-- --sessions 2048 --seconds 60 --persist on|off --ramp 128]
// Sessions at a model's pace, the way training runs hold them: N WebSocket sessions open at once,
// each stepping once a second (a phase of its own), for a while. Starts `serve:env` as a child
// process with its defaults (persistence on, one worker per core; its own heaps and CPU, measured
// from /proc over the process tree), opens and resets the N sessions, measures
// the server's RSS with all of them idle, then lets each step once a second and prints the step
// round-trip latency (p50/p99/max), the steps and errors, and the RSS during the run. An episode
// that ends is reset on the same connection (that reset counts as a step). RSS per idle session
// = (RSS with N idle sessions − RSS before any) ÷ N.

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import WebSocket from 'ws';
import { listEnvs } from '../server/engine';
import { migratedTempDatabase, spawnEnvServer } from '../server/env-server/test/spawn';
import { processTree, processTreeCpu, quantile } from './bench-api-lib';
import { benchOptions, oneOf, positive } from './bench-options';

const options = benchOptions('npm run bench:sessions [-- options]: N WebSocket sessions, each stepping once a second', {
  sessions: positive(2048, 'WebSocket sessions held at once', true),
  seconds: positive(60, 'seconds of stepping'),
  ramp: positive(128, 'sessions opened at a time', true),
  persist: oneOf(['on', 'off'] as const, 'on', 'record every episode in a fresh SQLite file (serve:env default)'),
});
const { sessions: N, seconds, ramp, persist } = options;
const ENVS = listEnvs().map((e) => e.id);
const CHAT = JSON.stringify({
  type: 'step',
  data: { assistant_message: 'Could you tell me a little more about what you need?', tool_calls: [], answer: null },
});

/** Resident memory of a process and its workers, from /proc (Linux), in bytes. */
function rss(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
    total += m ? Number(m[1]) * 1024 : NaN;
  }
  return total;
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the bench reads of an answer, without parsing it (the client's CPU is the machine's too). */
interface Answer {
  error: boolean;
  done: boolean;
}
const answerOf = (text: string): Answer => ({
  error: text.startsWith('{"type":"error"'),
  // the frame ends with the OpenEnv result's top-level done: …,"done":true}}
  done: text.endsWith('"done":true}}'),
});

interface Session {
  socket: WebSocket;
  /** answers awaited, in order (the server answers a session's messages in order) */
  waiting: Array<(answer: Answer) => void>;
}

function open(url: string): Promise<Session> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { perMessageDeflate: false });
  const s: Session = { socket, waiting: [] };
  socket.on('message', (raw) => s.waiting.shift()?.(answerOf(raw.toString())));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(s));
    socket.once('error', reject);
  });
}

function ask(s: Session, text: string): Promise<Answer> {
  return new Promise((resolve) => {
    s.waiting.push(resolve);
    s.socket.send(text);
  });
}

const resetOf = (i: number) =>
  JSON.stringify({ type: 'reset', data: { env: ENVS[i % ENVS.length], d: 3, run: 'bench-sessions' } });

const db = persist === 'on' ? migratedTempDatabase() : null;
const server = await spawnEnvServer(
  ['--persist', persist, '--max-sessions', String(N + 64), '--max-sessions-per-client', String(N + 64)],
  db ? { DATABASE_URL: db.url } : {},
);
const pid = server.child.pid!;
try {
  await sleep(1000);
  const before = rss(pid);
  const all: Session[] = [];
  for (let i = 0; i < N; i += ramp) {
    const batch = await Promise.all(Array.from({ length: Math.min(ramp, N - i) }, () => open(server.url)));
    await Promise.all(batch.map((s, j) => ask(s, resetOf(i + j))));
    all.push(...batch);
  }
  await sleep(2000);
  const idle = rss(pid);

  const latencies: number[] = [];
  let errors = 0;
  let peak = idle;
  const cpu0 = processTreeCpu(pid);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 500);
  await Promise.all(
    all.map(async (s, i) => {
      // each session's own phase within the second
      let next = t0 + (((i * 1000) / N) % 1000);
      while (next < end) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        const sent = performance.now();
        const answer = await ask(s, CHAT);
        latencies.push(performance.now() - sent);
        if (answer.error) errors++;
        else if (answer.done) await ask(s, resetOf(i));
        next += 1000;
      }
    }),
  );
  clearInterval(sampler);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = processTreeCpu(pid) - cpu0;
  const clientCpu = process.cpuUsage(clientCpu0);
  for (const s of all) s.socket.terminate();

  latencies.sort((a, b) => a - b);
  const perSession = (idle - before) / N;
  console.log(`bench:sessions — ${N} WebSocket sessions, one step a second each, ${seconds} s, persistence ${persist}`);
  console.log(
    `  steps           ${latencies.length} in ${elapsed.toFixed(1)} s (${(latencies.length / elapsed).toFixed(0)}/s), errors ${errors}`,
  );
  console.log(
    `  step latency    p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
  );
  console.log(`  server RSS      ${mb(before)} before, ${mb(idle)} with ${N} idle sessions, peak ${mb(peak)} stepping`);
  console.log(`  per idle session ${(perSession / 1024).toFixed(1)} KB RSS`);
  console.log(
    `  CPU             server ${(cpu / elapsed).toFixed(2)} cores (${((cpu * 1000) / latencies.length).toFixed(2)} ms per step, the resets included), bench client ${((clientCpu.user + clientCpu.system) / 1e6 / elapsed).toFixed(2)} cores while stepping; load average ${loadavg()[0].toFixed(1)}`,
  );
} finally {
  await server.stop();
  db?.remove();
}
