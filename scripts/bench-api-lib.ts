// bench:api's parts: the recorded action scripts (so the bench client plays no agent while it
// measures), light WebSocket and HTTP sessions that send those scripts pre-serialised, and CPU
// readings of the bench and server processes. The bench shares the machine's two cores with
// the server; everything it does per step is CPU the server does not get, hence the scripts.

import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { availableEnvs } from '../server/engine/envs/registry';
import { createEpisode, oracleAgent, type Catalog, type EnvId } from '../server/engine';
import { createHeuristicEpisodeAgent } from '../server/engine/agents/heuristic';
import { actionSchemaFor } from '../server/env-server/schemas';

export type AgentKind = 'heuristic' | 'oracle';
const ENVS = availableEnvs().map((e) => e.id as EnvId);

/** One episode as the agent played it in-process: what to send, and what the server must answer at the end. */
export interface Script {
  reset: string;
  /** Each step's action, already JSON. */
  actions: string[];
  reward: number;
}

/** Episode n of session i: envs and d cycle so every session sees every env. */
export function episodeConfig(session: number, n: number) {
  const envId = ENVS[(session + n) % ENVS.length];
  return { envId, d: (session * 7 + n) % 13, seed: 1 + session * 100_000 + n };
}

/** Plays the episode in this process with the agent and keeps its actions (the engine is deterministic). */
export function recordScript(catalog: Catalog, agent: AgentKind, session: number, n: number): Script {
  const config = episodeConfig(session, n);
  const episode = createEpisode(config, catalog);
  let r = episode.reset();
  const heuristic = createHeuristicEpisodeAgent(config.envId);
  const actions: string[] = [];
  while (!r.done) {
    const action = agent === 'oracle' ? oracleAgent.act(r.observation, episode) : heuristic(r.observation);
    // one the transports would refuse (the heuristic's empty query) goes as the model's text: scored the same
    const json = JSON.stringify(action);
    actions.push(actionSchemaFor(config.envId).safeParse(action).success ? json : JSON.stringify(json));
    r = episode.step(action);
  }
  return {
    reset: JSON.stringify({ env: config.envId, d: config.d, seed: config.seed, run: `bench-${agent}` }),
    actions,
    reward: r.reward,
  };
}

/** A session that replays scripts; resolves each call with the round trip in ms. */
export interface ReplaySession {
  /** Plays one script; calls `timed` with each reset/step round trip; resolves with the final reward. */
  play(script: Script, timed: (kind: 'reset' | 'step', ms: number) => void): Promise<number>;
  close(): void;
}

export async function wsSession(url: string): Promise<ReplaySession> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let waiting: ((text: string) => void) | null = null;
  socket.on('message', (raw) => waiting?.(raw.toString()));
  const call = (text: string) =>
    new Promise<string>((resolve) => {
      waiting = resolve;
      socket.send(text);
    });
  const frame = (type: string, data: string) => `{"type":"${type}","data":${data}}`;
  return {
    async play(script, timed) {
      let t = performance.now();
      let answer = await call(frame('reset', script.reset));
      timed('reset', performance.now() - t);
      for (const action of script.actions) {
        if (!answer.startsWith('{"type":"observation"')) throw new Error(`bench: server error ${answer.slice(0, 300)}`);
        t = performance.now();
        answer = await call(frame('step', action));
        timed('step', performance.now() - t);
      }
      return (JSON.parse(answer) as { data: { reward: number } }).data.reward;
    },
    close: () => socket.close(),
  };
}

/**
 * One keep-alive connection per session (with --workers N it stays on one worker, the one
 * holding the session's episode), spoken as bare HTTP/1.1: each request is one pre-built write,
 * each answer is read by its content-length (the env server always sends one). node:http's
 * client cost ~0.9 ms of CPU per step, as much as a third of the server's, on the same cores.
 */
export async function httpSession(url: string): Promise<ReplaySession> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.setNoDelay(true);
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let pending: Buffer = Buffer.alloc(0);
  let waiting: { resolve: (r: { status: number; text: string }) => void; reject: (e: Error) => void } | null = null;
  socket.on('error', (e) => waiting?.reject(e));
  socket.on('close', () => waiting?.reject(new Error('bench: the server closed the connection')));
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const headEnd = pending.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = pending.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length === undefined) return waiting?.reject(new Error(`bench: an answer without content-length: ${head}`));
    const end = headEnd + 4 + Number(length);
    if (pending.length < end) return;
    const answer = { status: Number(head.slice(9, 12)), text: pending.toString('utf8', headEnd + 4, end) };
    pending = pending.subarray(end);
    const w = waiting;
    waiting = null;
    w?.resolve(answer);
  });
  const post = (path: string, body: string, token?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      waiting = { resolve, reject };
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n${token ? `authorization: Bearer ${token}\r\n` : ''}\r\n${body}`,
      );
    });
  return {
    async play(script, timed) {
      let t = performance.now();
      let answer = await post('/reset', script.reset);
      timed('reset', performance.now() - t);
      if (answer.status !== 200)
        throw new Error(`bench: reset answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      const { episode_id, token } = (
        JSON.parse(answer.text) as { observation: { metadata: { episode_id: string; token: string } } }
      ).observation.metadata;
      for (const action of script.actions) {
        t = performance.now();
        answer = await post('/step', `{"episode_id":"${episode_id}","action":${action}}`, token);
        timed('step', performance.now() - t);
        if (answer.status !== 200)
          throw new Error(`bench: step answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      return (JSON.parse(answer.text) as { reward: number }).reward;
    },
    close: () => socket.destroy(),
  };
}

/** A process and its live children (the workers of serve:env --workers N), from /proc (Linux). */
export function processTree(pid: number): number[] {
  const parentOf = (p: string) => {
    try {
      const text = readFileSync(`/proc/${p}/stat`, 'utf8');
      return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return null;
    }
  };
  return [
    pid,
    ...readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e) && parentOf(e) === pid)
      .map(Number),
  ];
}

/** CPU seconds (user + system) a process and its live children have used, from /proc (Linux). */
export function processTreeCpu(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const text = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      if (p === pid) return NaN;
    }
  }
  return total;
}

/**
 * Context switches of a process tree's threads so far: voluntary (the thread waited: for a
 * socket, a lock) and involuntary (the kernel took its core for another task, e.g. the client
 * an answer just woke). Counts, not times, so the machine's load does not stretch them.
 */
export function processTreeSwitches(pid: number): { voluntary: number; involuntary: number } {
  const out = { voluntary: 0, involuntary: 0 };
  for (const p of processTree(pid)) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // ended meanwhile
    }
    for (const t of tasks) {
      try {
        const status = readFileSync(`/proc/${p}/task/${t}/status`, 'utf8');
        out.voluntary += Number(/\nvoluntary_ctxt_switches:\s*(\d+)/.exec(status)?.[1] ?? 0);
        out.involuntary += Number(/\nnonvoluntary_ctxt_switches:\s*(\d+)/.exec(status)?.[1] ?? 0);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

export const quantile = (xs: number[], q: number) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** The middle value; of an even count, the mean of the two middle ones (not the upper one: a median of 2 rows is their mean). */
export const median = (xs: number[]) => {
  const s = Float64Array.from(xs).sort();
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * The steps/s a CPU-bound row could reach if every core were busy at its measured cost: cores ÷
 * (server + client CPU seconds per step). The server and the bench share the cores, so a row
 * whose steps/s is near this figure is limited by CPU, not by waiting; a target above it needs
 * less CPU per step, not less waiting. NaN when the server's CPU was not measured.
 */
export function cpuCeiling(cores: number, serverCpuPer1k: number, clientCpuPer1k: number): number {
  const perStep = (serverCpuPer1k + clientCpuPer1k) / 1000;
  return perStep > 0 ? cores / perStep : NaN;
}

/** The CPU per 1,000 steps (server + client, seconds) at which `cores` give `stepsPerSecond` with every core busy. */
export const cpuBudgetPer1k = (cores: number, stepsPerSecond: number) => (cores / stepsPerSecond) * 1000;
