// npm run bench:api [-- --sessions 64 --seconds 10 --warmup 1500 --repeat 3 --transports ws,http,inproc
//                      --agents heuristic,oracle --persist off,on --workers N --pool 8 --url http://host:port --pid N]
// Throughput of the env server as trainers see it: N concurrent sessions, each playing episodes
// back to back (envs and d cycling), over WebSocket and HTTP. Prints steps/s, resets/s, p50/p99
// round-trip latency, the CPU each side spent per 1,000 steps, and the load average during the
// row. Without --url it starts `serve:env` as a child process with its default workers (one per
// core with persistence on, one with it off; --workers N: N cluster workers).
// Persistence off: episodes live in the server's memory only; on: the server records every reset
// and step in a fresh SQLite file (group commit; an answer is sent once its rows are committed).
//
// The bench plays no agent while it measures: before the rows it plays `--pool` episodes per
// session in-process with the agent (heuristic or oracle) and records their actions; the
// sessions then send those actions, pre-serialised, and check that each episode ends with the
// reward it had in-process (the engine is deterministic, so any difference is a bug). The bench
// and the server share the machine's cores; the client's CPU per 1k steps is printed beside the
// server's so its share is visible. The "inproc" row replays the same scripts through the
// protocol calls in this process (no JSON, no sockets, one session): the engine's ceiling.

import { availableParallelism, loadavg } from 'node:os';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { buildEnvService } from '../server/env-server/server';
import { migratedTempDatabase, spawnEnvServer } from '../server/env-server/test/spawn';
import {
  cpuBudgetPer1k,
  cpuCeiling,
  httpSession,
  median,
  processTreeCpu,
  processTreeSwitches,
  quantile,
  recordScript,
  wsSession,
  type AgentKind,
  type ReplaySession,
  type Script,
} from './bench-api-lib';
import { benchOptions, count, listOf, positive, text } from './bench-options';

const options = benchOptions("npm run bench:api [-- options]: the env server's throughput as trainers see it", {
  sessions: positive(64, 'concurrent sessions', true),
  seconds: positive(10, 'seconds per row'),
  warmup: count(1500, "steps played but not counted before a server's first row"),
  repeat: positive(1, 'rows per transport × agent × persistence', true),
  pool: positive(8, 'recorded episodes per session', true),
  workers: count(0, "serve:env cluster workers (0: serve:env's default)"),
  transports: listOf(['ws', 'http', 'inproc'] as const, 'ws,http,inproc', 'transports'),
  agents: listOf(['heuristic', 'oracle'] as const, 'heuristic,oracle', 'agents whose episodes are replayed'),
  persist: listOf(['off', 'on'] as const, 'off,on', 'persistence modes'),
  url: text('', 'a running env server to measure instead of starting one'),
  pid: text('', "that server's process id (for its CPU figures)"),
});
const { sessions, seconds } = options;
/**
 * Steps played but not counted before a server's first row (a tenth before each later row): its
 * JIT warms up first. Counted in steps, not seconds: on a loaded machine a few seconds can be too
 * little CPU to warm anything.
 */
const warmup = options.warmup;
const { repeat, pool, workers, transports, agents, persist: persistModes } = options;
type Transport = (typeof transports)[number];

/** The ceiling: the same protocol calls in this process, no JSON, no sockets, one session. */
function inProcessSession(): ReplaySession {
  const { service } = buildEnvService(
    loadConfig({}, ['--max-sessions', '1024', '--persist', 'off'], DEFAULT_CATALOG_ID),
    getCatalog(DEFAULT_CATALOG_ID),
  );
  return {
    async play(script, timed) {
      let t = performance.now();
      const { live, response } = service.reset(JSON.parse(script.reset));
      timed('reset', performance.now() - t);
      let reward = response.reward;
      for (const action of script.actions) {
        const a = JSON.parse(action) as unknown;
        t = performance.now();
        reward = service.stepLive(live, a).reward;
        timed('step', performance.now() - t);
      }
      service.sessions.drop(live.id);
      // The calls are synchronous: let the bench's timers (CPU and load sampling) run.
      await new Promise((r) => setImmediate(r));
      return reward;
    },
    close: () => {},
  };
}

interface RowResult {
  steps: number;
  resets: number;
  p50: number;
  p99: number;
  resetP50: number;
  resetP99: number;
  /** CPU seconds per 1,000 steps. */
  serverCpu: number;
  clientCpu: number;
  /** The server's context switches per step (all its threads): voluntary / involuntary. */
  switches: { voluntary: number; involuntary: number };
  load: number;
  mismatches: number;
}

async function runRow(
  transport: Transport,
  url: string,
  serverPid: number | null,
  scripts: Script[][],
  warmup: number,
) {
  const count = transport === 'inproc' ? 1 : sessions;
  const open: ReplaySession[] = await Promise.all(
    Array.from({ length: count }, () =>
      transport === 'ws' ? wsSession(url) : transport === 'http' ? httpSession(url) : inProcessSession(),
    ),
  );
  let from = warmup > 0 ? Infinity : performance.now();
  let until = from + seconds * 1000;
  let played = 0;
  const steps: number[] = [];
  const resets: number[] = [];
  let mismatches = 0;
  type Mark = { client: NodeJS.CpuUsage; server: number; switches: ReturnType<typeof processTreeSwitches> | null };
  let mark: Mark | null = null;
  const loads: number[] = [];
  const sampler = setInterval(() => {
    const now = performance.now();
    if (now >= from && now < until) loads.push(loadavg()[0]);
    if (!mark && now >= from)
      mark = {
        client: process.cpuUsage(),
        server: serverPid ? processTreeCpu(serverPid) : NaN,
        switches: serverPid ? processTreeSwitches(serverPid) : null,
      };
  }, 250);
  await Promise.all(
    open.map(async (session, i) => {
      for (let n = 0; performance.now() < until; n++) {
        const script = scripts[i][n % scripts[i].length];
        const reward = await session.play(script, (kind, ms) => {
          const now = performance.now();
          if (now - ms >= from) (kind === 'step' ? steps : resets).push(ms);
          else if (kind === 'step' && ++played === warmup) {
            from = now;
            until = now + seconds * 1000;
          }
        });
        if (reward !== script.reward) mismatches++;
      }
    }),
  );
  clearInterval(sampler);
  const wall = (performance.now() - from) / 1000;
  const m = mark as Mark | null;
  const clientUsed = m ? process.cpuUsage(m.client) : { user: NaN, system: NaN };
  const serverUsed = m && serverPid ? processTreeCpu(serverPid) - m.server : NaN;
  const switchesNow = m?.switches && serverPid ? processTreeSwitches(serverPid) : null;
  const perStep = (n: number) => n / Math.max(1, steps.length);
  const switches = switchesNow
    ? {
        voluntary: perStep(switchesNow.voluntary - m!.switches!.voluntary),
        involuntary: perStep(switchesNow.involuntary - m!.switches!.involuntary),
      }
    : { voluntary: NaN, involuntary: NaN };
  open.forEach((s) => s.close());
  const per1k = (cpuSeconds: number) => (cpuSeconds / Math.max(1, steps.length)) * 1000;
  const clientCpu = per1k((clientUsed.user + clientUsed.system) / 1e6);
  return {
    steps: steps.length / wall,
    resets: resets.length / wall,
    p50: quantile(steps, 0.5),
    p99: quantile(steps, 0.99),
    resetP50: quantile(resets, 0.5),
    resetP99: quantile(resets, 0.99),
    // In-process, the bench is the server.
    serverCpu: transport === 'inproc' ? clientCpu : per1k(serverUsed),
    clientCpu: transport === 'inproc' ? 0 : clientCpu,
    switches,
    load: loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length),
    mismatches,
  } satisfies RowResult;
}

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`.padStart(9);
/** `cores`: what the row could use (NaN: no ceiling printed). */
function printRow(label: string, persist: string, agent: string, r: RowResult, cores: number) {
  const ceiling = cpuCeiling(cores, r.serverCpu, r.clientCpu);
  console.log(
    [
      label.padEnd(12),
      persist.padEnd(7),
      agent.padEnd(9),
      r.steps.toFixed(0).padStart(7),
      r.resets.toFixed(0).padStart(8),
      ms(r.p50),
      ms(r.p99),
      ms(r.resetP50),
      ms(r.resetP99),
      `${r.serverCpu.toFixed(2)} s`.padStart(10),
      `${r.clientCpu.toFixed(2)} s`.padStart(10),
      r.load.toFixed(1).padStart(6),
      String(r.mismatches).padStart(9),
      `${r.switches.voluntary.toFixed(2)} / ${r.switches.involuntary.toFixed(2)}`.padStart(12),
      (Number.isNaN(ceiling) ? '—' : ceiling.toFixed(0)).padStart(8),
    ].join(' '),
  );
}

async function rows(
  persist: string,
  url: string,
  pid: number | null,
  rowTransports: Transport[],
  scripts: Map<AgentKind, Script[][]>,
) {
  let first = true;
  for (const transport of rowTransports)
    for (const agent of agents) {
      // No ceiling for the inproc row: one session on one thread, whose CPU also counts V8's helper
      // threads running beside it (it can exceed 1 ÷ its CPU a step), so neither 1 core nor all fit.
      const cores = transport === 'inproc' ? NaN : availableParallelism();
      const results: RowResult[] = [];
      for (let k = 0; k < repeat; k++) {
        // The process is warm after its first row; later rows only refill the pipeline.
        const r = await runRow(transport, url, pid, scripts.get(agent)!, first ? warmup : Math.ceil(warmup / 10));
        first = false;
        results.push(r);
        printRow(transport === 'inproc' ? 'inproc×1' : transport, persist, agent, r, cores);
      }
      if (repeat > 1) {
        const numbers = Object.keys(results[0]).filter((key) => key !== 'switches') as (keyof RowResult)[];
        const med = {
          ...Object.fromEntries(numbers.map((key) => [key, median(results.map((r) => r[key] as number))])),
          switches: {
            voluntary: median(results.map((r) => r.switches.voluntary)),
            involuntary: median(results.map((r) => r.switches.involuntary)),
          },
          // any mismatch is a bug: the median line counts them all
          mismatches: results.reduce((n, r) => n + r.mismatches, 0),
        } as RowResult;
        printRow(`  median of ${repeat}`, persist, agent, med, cores);
      }
    }
}

async function main() {
  const external = options.url;
  const catalog = getCatalog(DEFAULT_CATALOG_ID);
  console.log(
    `node ${process.version}; ${availableParallelism()} cores; ${external ? `env server ${external}` : `serve:env spawned per persistence mode, ${workers || "serve:env's default"} worker(s)`}`,
  );
  const t = performance.now();
  const scripts = new Map<AgentKind, Script[][]>();
  for (const agent of agents)
    scripts.set(
      agent,
      Array.from({ length: sessions }, (_, i) =>
        Array.from({ length: pool }, (_, n) => recordScript(catalog, agent, i, n)),
      ),
    );
  console.log(
    `${sessions} concurrent sessions; ${pool} recorded episodes each (${((performance.now() - t) / 1000).toFixed(0)} s to record); ${warmup} steps of warm-up, then ${seconds} s counted per row, ${repeat}×`,
  );
  console.log('latency: client-side round trip. cpu: CPU seconds per 1,000 steps (server process tree / bench client)');
  console.log('load: 1-minute load average during the row. mismatch: episodes whose reward differs from in-process');
  console.log(
    "switches/step: the server's context switches per step, voluntary / involuntary (preempted), all its threads",
  );
  console.log(
    `ceiling: the steps/s these ${availableParallelism()} cores would give at the row's CPU per step (server + client), every core busy;` +
      ` 3,000 steps/s here leaves ${cpuBudgetPer1k(availableParallelism(), 3000).toFixed(3)} s per 1k steps in all\n`,
  );
  console.log(
    'transport    persist agent      steps/s resets/s  step p50  step p99 reset p50 reset p99 server cpu client cpu   load mismatch switches/step ceiling',
  );
  const remote = transports.filter((x) => x !== 'inproc');
  // --pid: the running server's process (its workers included), so its CPU is measured too
  if (external) await rows('?', external, Number(options.pid) || null, remote, scripts);
  else
    for (const persist of persistModes) {
      if (remote.length === 0) break;
      const db = persist === 'on' ? migratedTempDatabase() : null;
      const server = await spawnEnvServer(
        [
          '--max-sessions',
          String(Math.max(1024, sessions * 4)),
          '--persist',
          persist,
          ...(workers > 0 ? ['--workers', String(workers)] : []),
        ],
        db ? { DATABASE_URL: db.url } : {},
      );
      try {
        await rows(persist, server.url, server.child.pid ?? null, remote, scripts);
      } finally {
        await server.stop();
        db?.remove();
      }
    }
  if (transports.includes('inproc')) await rows('off', '', null, ['inproc'], scripts);
  console.log(
    `\nload average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (other processes on the machine slow every wall-clock figure; CPU per step is steadier)`,
  );
}

void main();
