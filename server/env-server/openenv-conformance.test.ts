// Every HTTP body and WebSocket frame of a full episode of each env, in both modes, validated
// against OpenEnv's own models (restated from its source in clients/python/tests/openenv_models.py,
// extra fields forbidden) by pydantic in a python3 child process. Includes the refusal of a
// schema-breaking action on both transports, with the episode played on to its end afterwards.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { startEnvServer, type RunningEnvServer } from './server';
import { oracleRun, testConfig } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);
const VALIDATOR = path.resolve(__dirname, '../../clients/python/tests/validate_wire.py');
const BROKEN = { assistant_message: 'x', tool_calls: [{ name: 'no.such_tool', args: {} }], answer: null };
const run = promisify(execFile);

interface Rec {
  kind: string;
  text: string;
}
let sim: RunningEnvServer;
let prod: RunningEnvServer;
let dir: string;

beforeAll(async () => {
  sim = await startEnvServer(testConfig(), testCatalog());
  prod = await startEnvServer(testConfig({ mode: 'production' }), testCatalog());
  dir = mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-openenv-'));
});
afterAll(async () => {
  await Promise.all([sim?.close(), prod?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function http(base: string, method: string, route: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

/** Validates the records with pydantic; returns the validator's summary and exit code. */
async function validate(records: Rec[], name: string) {
  const file = path.join(dir, `${name}.jsonl`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  try {
    const { stdout } = await run('python3', [VALIDATOR, file], { timeout: 120_000 });
    return { code: 0, ...JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, ...JSON.parse(err.stdout) };
  }
}

const metaOf = (body: { observation: { metadata: Record<string, unknown> } }) => body.observation.metadata;
const withoutMetadata = (observation: Record<string, unknown>) => {
  const { metadata: _, ...rest } = observation;
  return JSON.stringify(rest);
};

/** A full HTTP episode played with the oracle's actions, a schema-breaking action first. */
async function httpEpisode(envId: EnvId, records: Rec[]) {
  const ref = oracleRun({ envId, d: 4, seed: 3 });
  const reset = await http(sim.url, 'POST', '/reset', {
    env: envId,
    d: 4,
    seed: 3,
    run: 'conformance',
    train_step: 1,
    group: envId,
  });
  expect(reset.status).toBe(200);
  records.push({ kind: 'reset', text: reset.text });
  const { episode_id, token } = metaOf(reset.json) as { episode_id: string; token: string };
  const refused = await http(sim.url, 'POST', '/step', { episode_id, action: BROKEN }, token);
  expect(refused.status).toBe(422);
  records.push({ kind: 'http_422', text: refused.text });
  const observations = [withoutMetadata(reset.json.observation)];
  let last = reset.json;
  for (const action of ref.actions) {
    const step = await http(sim.url, 'POST', '/step', { episode_id, action }, token);
    expect(step.status, step.text.slice(0, 300)).toBe(200);
    records.push({ kind: 'step', text: step.text });
    observations.push(withoutMetadata(step.json.observation));
    const state = await http(sim.url, 'GET', `/state?episode_id=${episode_id}`, undefined, token);
    records.push({ kind: 'state', text: state.text });
    last = step.json;
  }
  // the refusal left the episode as it was: the oracle's run, observation for observation
  expect(observations, envId).toEqual(ref.sent);
  expect(last.reward).toBe(ref.rewards.at(-1));
  expect(metaOf(last).termination).toBe(ref.episode.termination);
}

/** A full WebSocket episode; every frame recorded. */
async function wsEpisode(base: string, envId: EnvId, seed: number | null, records: Rec[]) {
  const ref = oracleRun({ envId, d: 4, seed: seed ?? 3 });
  const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const frames: string[] = [];
  const waiters: Array<(text: string) => void> = [];
  socket.on('message', (raw) => {
    frames.push(raw.toString());
    waiters.shift()?.(raw.toString());
  });
  const ask = (msg: unknown) =>
    new Promise<{ type: string; data: Record<string, unknown> }>((resolve) => {
      waiters.push((text) => resolve(JSON.parse(text)));
      socket.send(JSON.stringify(msg));
    });
  const reset = await ask({ type: 'reset', data: seed === null ? { env: envId, d: 4 } : { env: envId, d: 4, seed } });
  expect(reset.type).toBe('observation');
  const refused = await ask({ type: 'step', data: BROKEN });
  expect(refused.data.code).toBe('VALIDATION_ERROR');
  await ask({ type: 'state' });
  await ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
  let last = reset;
  // production mode draws its own seed: the oracle's actions then only need to be well-formed
  for (const action of ref.actions) {
    last = await ask({ type: 'step', data: action });
    if (last.type === 'error' || (last.data as { done: boolean }).done) break;
    await ask({ type: 'state' });
  }
  socket.close();
  // the tools once per episode: in the reset's frame, in no step's
  const observed = frames.map((t) => JSON.parse(t)).filter((f) => f.type === 'observation');
  expect(observed[0].data.observation.tools, envId).toEqual(JSON.parse(ref.observations[0]).tools);
  for (const f of observed.slice(1)) expect(f.data.observation, envId).not.toHaveProperty('tools');
  const kinds: Record<string, string> = {
    observation: 'ws_observation',
    state: 'ws_state',
    error: 'ws_error',
    mcp: 'ws_mcp',
  };
  for (const text of frames) records.push({ kind: kinds[JSON.parse(text).type] ?? 'unknown', text });
  return { frames, last };
}

describe('OpenEnv conformance (pydantic, extra fields forbidden)', () => {
  it('every body and frame of a full episode of each env, both transports, both modes', async () => {
    const records: Rec[] = [];
    for (const base of [sim.url, prod.url]) {
      for (const route of ['/health', '/metadata', '/schema', '/schema?env=CART']) {
        const r = await http(base, 'GET', route);
        expect(r.status).toBe(200);
        records.push({ kind: route.slice(1).split('?')[0], text: r.text });
      }
      // openenv validate: POST /mcp with {} answers a JSON-RPC payload
      const mcp = await http(base, 'POST', '/mcp', {});
      expect(mcp.status).toBe(200);
      expect(mcp.json.jsonrpc).toBe('2.0');
      records.push({ kind: 'mcp', text: mcp.text });
    }
    const none = await http(sim.url, 'GET', '/state');
    records.push({ kind: 'state_none', text: none.text });
    // OpenEnv's stateless HTTP step: a fresh episode takes the action
    const stateless = await http(sim.url, 'POST', '/step', { action: 'not an action at all', request_id: 'r1' });
    expect(stateless.json.done).toBe(true);
    expect(stateless.json.observation.tools).toBeDefined(); // the first answer of its episode
    records.push({ kind: 'step', text: stateless.text });

    for (const envId of ENVS) {
      await httpEpisode(envId, records);
      const { last } = await wsEpisode(sim.url, envId, 3, records);
      expect(last.type).toBe('observation');
      expect((last.data as { done: boolean }).done, envId).toBe(true);
    }
    const production: Rec[] = [];
    for (const envId of ENVS) await wsEpisode(prod.url, envId, null, production);
    // production mode: no frame carries the seed, under any key
    for (const r of production) expect(r.text).not.toMatch(/"seed"/);
    records.push(...production);

    const summary = await validate(records, 'episodes');
    expect(summary.failures).toEqual([]);
    expect(summary.code).toBe(0);
    expect(summary.checked).toBe(records.length);
    for (const kind of ['reset', 'step', 'state', 'http_422', 'ws_observation', 'ws_state', 'ws_error', 'ws_mcp'])
      expect(summary.kinds[kind], kind).toBeGreaterThan(0);
  }, 240_000);

  it('the validator fails what OpenEnv forbids (an extra top-level field, a missing observation field)', async () => {
    const r = await http(sim.url, 'POST', '/reset', { env: 'PD', seed: 1 });
    const extra = JSON.stringify({ ...r.json, episode_id: metaOf(r.json).episode_id });
    const { envId: _, ...observation } = r.json.observation;
    const missing = JSON.stringify({ ...r.json, observation });
    const health = JSON.stringify({ status: 'healthy', active_sessions: 1 });
    const summary = await validate(
      [
        { kind: 'reset', text: extra },
        { kind: 'reset', text: missing },
        { kind: 'health', text: health },
      ],
      'negative',
    );
    expect(summary.code).toBe(1);
    expect(summary.failures.map((f: { line: number }) => f.line)).toEqual([1, 2, 3]);
  });

  it('lists the mode’s routes in /openapi.json as openenv validate expects, and serves only those', async () => {
    const simPaths = Object.keys((await http(sim.url, 'GET', '/openapi.json')).json.paths);
    const prodDoc = (await http(prod.url, 'GET', '/openapi.json')).json;
    expect(typeof prodDoc.info.version).toBe('string');
    expect(simPaths).toEqual(expect.arrayContaining(['/reset', '/step', '/state', '/mcp', '/schema']));
    for (const p of ['/reset', '/step', '/state']) {
      expect(Object.keys(prodDoc.paths)).not.toContain(p);
      expect((await http(prod.url, p === '/state' ? 'GET' : 'POST', p, p === '/state' ? undefined : {})).status).toBe(
        404,
      );
    }
    expect(Object.keys(prodDoc.paths)).toContain('/mcp');
  });
});
