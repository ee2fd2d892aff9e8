// npm run bench:api [-- --sessions 64 --seconds 20 --warmup 10 --transports ws,http,inproc --agents heuristic,oracle --persist off,on --url http://host:port]
// Throughput of the env server as trainers see it: N concurrent sessions, each playing episodes
// back to back (envs and d cycling), over WebSocket and HTTP. Prints steps/s, resets/s and
// p50/p99 round-trip latency. Without --url it starts `serve:env` as a child process (its own
// core), so the figures include JSON, the network stack and the engine. The "inproc" row makes
// the same protocol calls inside the bench process (no JSON, no sockets, one core): the ceiling
// the engine sets (one session: its calls are synchronous). Persistence off: episodes live in
// the server's memory only; on: the server records every reset and step in a fresh SQLite file
// (group commit; an answer is sent once its rows are committed).
//
// The heuristic reads only observations. The oracle needs the hidden goal and the world: the
// bench plays a shadow copy of each episode in its own process (its admin access) and sends the
// oracle's action over the wire, so oracle runs also spend client CPU on the shadow.

import { cpus, loadavg } from 'node:os';
import { availableEnvs } from '../server/engine/envs/registry';
import { createEpisode, oracleAgent, type Action, type EnvId, type Observation } from '../server/engine';
import { createHeuristicEpisodeAgent } from '../server/engine/agents/heuristic';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { EnvHttpClient, EnvWsClient, type ResetOptions, type StepResponse } from '../server/client/env-client';
import { loadConfig } from '../server/env-server/config';
import type { EnvService } from '../server/env-server/protocol';
import { buildEnvService } from '../server/env-server/server';
import type { LiveEpisode } from '../server/env-server/sessions';
import { migratedTempDatabase, spawnEnvServer } from '../server/env-server/spawn';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : (process.argv[i + 1] ?? '');
}
function positive(name: string, fallback: number): number {
  const v = Number(option(name, String(fallback)));
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`--${name} needs a positive number, got "${option(name, '')}"`);
    process.exit(2);
  }
  return v;
}
function list<T extends string>(name: string, fallback: string, allowed: readonly T[]): T[] {
  const values = option(name, fallback).split(',') as T[];
  const bad = values.find((v) => !allowed.includes(v));
  if (bad) {
    console.error(`--${name}: unknown "${bad}"; choose from ${allowed.join(', ')}`);
    process.exit(2);
  }
  return values;
}

const sessions = positive('sessions', 64);
const seconds = positive('seconds', 20);
/** Played but not counted: the JIT, the catalog's lazy indexes and the sockets warm up first. */
const warmup = Number(option('warmup', '10'));
const transports = list('transports', 'ws,http,inproc', ['ws', 'http', 'inproc'] as const);
const agents = list('agents', 'heuristic,oracle', ['heuristic', 'oracle'] as const);
const persistModes = list('persist', 'off,on', ['off', 'on'] as const);
const ENVS = availableEnvs().map((e) => e.id as EnvId);

/** One session's transport: reset and step, whatever carries them. */
interface Session {
  reset(o: ResetOptions): Promise<StepResponse>;
  step(a: Action): Promise<StepResponse>;
  close(): Promise<void>;
}

/** The ceiling: the same protocol calls in this process, no JSON, no sockets. */
let local: EnvService | null = null;
function inProcessSession(): Session {
  local ??= buildEnvService(
    loadConfig({}, ['--max-sessions', String(Math.max(1024, sessions * 4)), '--persist', 'off'], DEFAULT_CATALOG_ID),
    getCatalog(DEFAULT_CATALOG_ID),
  ).service;
  const service = local;
  let live: LiveEpisode | null = null;
  return {
    reset: async (o) => {
      const r = service.reset(o);
      live = r.live;
      return r.response;
    },
    step: async (a) => service.stepLive(live!, a),
    close: async () => {},
  };
}

async function openSession(kind: 'ws' | 'http' | 'inproc', url: string): Promise<Session> {
  if (kind === 'inproc') return inProcessSession();
  if (kind === 'ws') {
    const ws = await EnvWsClient.connect(url);
    return { reset: (o) => ws.reset(o), step: (a) => ws.step(a), close: () => ws.close() };
  }
  const http = new EnvHttpClient(url);
  let id = '';
  return {
    reset: async (o) => {
      const r = await http.reset(o);
      id = r.episode_id;
      return r;
    },
    step: (a) => http.step(id, a),
    close: async () => {},
  };
}

interface Tally {
  /** Nothing is counted before this time. */
  from: number;
  steps: number[];
  resets: number[];
  episodes: number;
  rewardSum: number;
}

async function worker(index: number, session: Session, agent: 'heuristic' | 'oracle', until: number, tally: Tally) {
  const catalog = agent === 'oracle' ? getCatalog(DEFAULT_CATALOG_ID) : null;
  for (let n = 0; performance.now() < until; n++) {
    const envId = ENVS[(index + n) % ENVS.length];
    const config = { envId, d: (index * 7 + n) % 13, seed: 1 + index * 100_000 + n };
    let t0 = performance.now();
    let r = await session.reset({ env: envId, d: config.d, seed: config.seed, run: `bench-${agent}` });
    const counted = t0 >= tally.from;
    if (counted) tally.resets.push(performance.now() - t0);
    const shadow = catalog ? createEpisode(config, catalog) : null;
    shadow?.reset();
    const heuristic = createHeuristicEpisodeAgent(envId);
    while (!r.done) {
      const observation: Observation = r.observation;
      const action = shadow ? oracleAgent.act(observation, shadow) : heuristic(observation);
      t0 = performance.now();
      r = await session.step(action);
      if (t0 >= tally.from) tally.steps.push(performance.now() - t0);
      shadow?.step(action);
    }
    if (counted) {
      tally.episodes++;
      tally.rewardSum += r.reward;
    }
  }
}

const quantile = (xs: number[], q: number) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function runRows(url: string, persist: string, rowTransports: readonly ('ws' | 'http' | 'inproc')[]) {
  for (const transport of rowTransports)
    for (const agent of agents) {
      // In-process calls are synchronous: one session, or the latency would count the queue.
      const open = await Promise.all(
        Array.from({ length: transport === 'inproc' ? 1 : sessions }, () => openSession(transport, url)),
      );
      const start = performance.now();
      const tally: Tally = { from: start + warmup * 1000, steps: [], resets: [], episodes: 0, rewardSum: 0 };
      await Promise.all(open.map((s, i) => worker(i, s, agent, tally.from + seconds * 1000, tally)));
      const wall = (performance.now() - tally.from) / 1000;
      await Promise.all(open.map((s) => s.close()));
      const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(9);
      console.log(
        `${(transport === 'inproc' ? 'inproc×1' : transport).padEnd(10)} ${persist.padEnd(8)} ${agent.padEnd(10)} ${(tally.steps.length / wall).toFixed(0).padStart(8)}  ${(tally.resets.length / wall).toFixed(0).padStart(8)}  ${String(tally.episodes).padStart(8)} ${ms(quantile(tally.steps, 0.5))} ${ms(quantile(tally.steps, 0.99))}  ${ms(quantile(tally.resets, 0.5))}  ${ms(quantile(tally.resets, 0.99))}  ${(tally.rewardSum / Math.max(1, tally.episodes)).toFixed(3).padStart(11)}`,
      );
    }
}

async function main() {
  const external = option('url', '');
  if (agents.includes('oracle')) getCatalog(DEFAULT_CATALOG_ID);
  console.log(
    `node ${process.version}; ${cpus().length} cores; ${external ? `env server ${external}` : 'serve:env spawned per persistence mode'}`,
  );
  console.log(
    `${sessions} concurrent sessions; ${warmup} s warm-up, then ${seconds} s counted per row; load average before: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log('envs cycling over all eight, d cycling 0..12; latency is the client-side round trip\n');
  console.log(
    'transport  persist  agent       steps/s  resets/s  episodes  step p50   step p99  reset p50  reset p99  mean reward',
  );
  const remote = transports.filter((t) => t !== 'inproc');
  if (external) await runRows(external, '?', remote);
  else
    for (const persist of persistModes) {
      if (remote.length === 0) break;
      const db = persist === 'on' ? migratedTempDatabase() : null;
      const server = await spawnEnvServer(
        ['--max-sessions', String(Math.max(1024, sessions * 4)), '--persist', persist],
        db ? { DATABASE_URL: db.url } : {},
      );
      try {
        await runRows(server.url, persist, remote);
      } finally {
        await server.stop();
        db?.remove();
      }
    }
  if (transports.includes('inproc')) await runRows('', 'off', ['inproc']);
  console.log(
    `\nload average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (other processes on the machine slow every figure)`,
  );
}

void main();
