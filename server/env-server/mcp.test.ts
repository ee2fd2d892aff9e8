// An MCP client written against the MCP spec (JSON-RPC 2.0 over HTTP, plain fetch) lists the
// tools and plays an episode of each env to its reward; the engine in-process, given the same
// turns, agrees on every result. Every MCP message is scanned for the hidden goal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEpisode, listEnvs, oracleAgent, type Action, type EnvId, type Observation } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { fieldNames, leakedValues, secretValues } from '@/server/episodes/test/goal-scan';
import type { HiddenGoal } from '@/server/episodes/types';
import { startEnvServer, type RunningEnvServer } from './server';
import { ADMIN, testConfig } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);
let sim: RunningEnvServer;
let prod: RunningEnvServer;

beforeAll(async () => {
  sim = await startEnvServer(testConfig(), testCatalog());
  prod = await startEnvServer(testConfig({ mode: 'production' }), testCatalog());
});
afterAll(async () => {
  await Promise.all([sim?.close(), prod?.close()]);
});

interface Rpc {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: Record<string, unknown> & {
    structuredContent?: { done: boolean; reward: number; customer_message: string | null; turn: number };
    isError?: boolean;
    content?: Array<{ type: string; text: string }>;
  };
  error?: { code: number; message: string };
}

/** A minimal MCP client: one JSON-RPC request per POST, the episode token as a bearer token. */
function mcpClient(base: string, wire: string[]) {
  let next = 1;
  let token: string | null = null;
  const post = async (body: unknown) => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    wire.push(text);
    return { status: res.status, text };
  };
  return {
    setToken: (t: string) => (token = t),
    async request(method: string, params?: Record<string, unknown>): Promise<Rpc> {
      const { status, text } = await post({ jsonrpc: '2.0', id: next++, method, ...(params ? { params } : {}) });
      expect(status).toBe(200);
      return JSON.parse(text) as Rpc;
    },
    notify: (method: string) => post({ jsonrpc: '2.0', method }),
  };
}

/** The MCP calls for one of the oracle's turns: each tool call, then the answer (or a reply). */
function callsFor(action: Action): Array<{ name: string; arguments: Record<string, unknown>; turn: Action }> {
  const message = action.assistant_message;
  const calls = action.tool_calls.map((c) => ({
    name: c.name,
    arguments: { ...c.args, assistant_message: message },
    turn: { assistant_message: message, tool_calls: [c], answer: null } as Action,
  }));
  if (action.answer) {
    const { env: _env, ...fields } = action.answer;
    calls.push({
      name: 'answer',
      arguments: { ...fields, assistant_message: message },
      turn: { assistant_message: message, tool_calls: [], answer: action.answer },
    });
  }
  if (calls.length === 0)
    calls.push({ name: 'reply', arguments: { assistant_message: message }, turn: { ...action, tool_calls: [] } });
  return calls;
}

async function playEnv(envId: EnvId) {
  const wire: string[] = [];
  const client = mcpClient(sim.url, wire);
  const init = await client.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'spec-client', version: '1' },
  });
  expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', capabilities: { tools: {} } });
  expect((await client.notify('notifications/initialized')).status).toBe(202);
  const created = await client.request('openenv/session/create', { env: envId, d: 4, seed: 3 });
  const metadata = (created.result!.observation as { metadata: { token: string; episode_id: string } }).metadata;
  client.setToken(metadata.token);

  const listed = await client.request('tools/list');
  const tools = (listed.result!.tools as Array<{ name: string; inputSchema: { type: string } }>).map((t) => t.name);
  const envTools = listEnvs().find((e) => e.id === envId)!.tools;
  expect(tools).toEqual([...envTools, 'reply', 'answer']);

  // the mirror: the same episode in-process, given exactly the turns the MCP calls make
  const mirror = createEpisode({ envId, d: 4, seed: 3 }, testCatalog());
  let observation: Observation = mirror.reset().observation;
  const seen = [JSON.stringify(observation)];
  let refusedOnce = false;
  let reward = 0;
  while (!mirror.done) {
    for (const call of callsFor(oracleAgent.act(observation, mirror))) {
      if (!refusedOnce) {
        // a call that breaks its tool's schema is a tool error the model reads; the episode is unchanged
        const bad = await client.request('tools/call', { name: call.name, arguments: { ...call.arguments, bogus: 1 } });
        expect(bad.result!.isError, envId).toBe(true);
        refusedOnce = true;
      }
      const r = await client.request('tools/call', { name: call.name, arguments: call.arguments });
      const expected = mirror.step(call.turn);
      observation = expected.observation;
      seen.push(JSON.stringify(observation));
      expect(r.result!.isError, `${envId} ${call.name}: ${r.result!.content?.[0].text}`).toBe(false);
      expect(r.result!.structuredContent).toMatchObject({
        turn: observation.turn,
        customer_message: observation.customerMessage,
        done: expected.done,
        reward: expected.reward,
      });
      expect(JSON.parse(r.result!.content![0].text)).toEqual(r.result!.structuredContent);
      reward = expected.reward;
      if (mirror.done) break;
    }
  }
  const after = await client.request('tools/call', {
    name: 'reply',
    arguments: { assistant_message: 'Anything else?' },
  });
  expect(after.result!.isError).toBe(true);
  expect(after.result!.content![0].text).toMatch(/EPISODE_DONE/);

  // the goal scan over every MCP message: nothing beyond what the engine's observations showed
  // (field names are structure, not values: a goal value "version" is not leaked by serverInfo.version)
  const publicText = [
    ...seen,
    JSON.stringify(listed.result),
    ...wire.filter((text) => text !== '').map((text) => fieldNames(JSON.parse(text))),
    metadata.episode_id,
  ].join('\n');
  const secrets = secretValues(mirror.hiddenGoal() as unknown as HiddenGoal, publicText);
  for (const [i, text] of wire.entries()) expect(leakedValues(text, secrets), `${envId} message ${i + 1}`).toEqual([]);
  return { reward, secrets, episodeId: metadata.episode_id, mirror };
}

describe('MCP over HTTP', () => {
  it('lists the tools and plays an episode of each env to its reward, as the engine in-process; no message carries the goal', async () => {
    let scannedWithSecrets = 0;
    for (const envId of ENVS) {
      const { reward, secrets, episodeId, mirror } = await playEnv(envId);
      expect(mirror.done, envId).toBe(true);
      expect(reward, envId).toBe(mirror.breakdown!.total);
      if (secrets.length > 0) {
        scannedWithSecrets++;
        // the scan can fail: the admin's full state of the same episode carries the goal
        const full = await fetch(`${sim.url}/state?episode_id=${episodeId}`, {
          headers: { authorization: `Bearer ${ADMIN}` },
        });
        expect(leakedValues(await full.text(), secrets).length, envId).toBeGreaterThan(0);
      }
    }
    expect(scannedWithSecrets).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it('answers protocol mistakes with JSON-RPC errors', async () => {
    const client = mcpClient(sim.url, []);
    expect((await client.request('tools/call', { name: 'reply', arguments: {} })).error?.code).toBe(-32602);
    expect((await client.request('tools/list')).error?.code).toBe(-32602);
    expect((await client.request('tools/list', { env: 'CART' })).result?.tools).toBeDefined();
    expect((await client.request('no/such')).error?.code).toBe(-32601);
    client.setToken('ept1.ep_nope.bad');
    expect(
      (await client.request('tools/call', { name: 'reply', arguments: { assistant_message: 'hi' } })).error?.code,
    ).toBe(-32000);
    const created = await client.request('openenv/session/create', { env: 'PD' });
    client.setToken((created.result!.observation as { metadata: { token: string } }).metadata.token);
    expect((await client.request('tools/call', { name: 'no.such_tool', arguments: {} })).error?.code).toBe(-32602);
    const parse = await fetch(`${sim.url}/mcp`, { method: 'POST', body: '{nope' });
    expect(await parse.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('production mode: MCP starts and plays an episode; no message carries the seed', async () => {
    const wire: string[] = [];
    const client = mcpClient(prod.url, wire);
    const refused = await client.request('openenv/session/create', { env: 'PD', seed: 7 });
    expect(refused.error?.message).toMatch(/server draws the seed/);
    const created = await client.request('openenv/session/create', { env: 'STATUS', d: 2 });
    client.setToken((created.result!.observation as { metadata: { token: string } }).metadata.token);
    await client.request('tools/list');
    await client.request('tools/call', { name: 'order.list', arguments: {} });
    const answer = await client.request('tools/call', { name: 'reply', arguments: { assistant_message: 'Thanks!' } });
    expect(answer.result!.isError).toBe(false);
    for (const text of wire) expect(text).not.toMatch(/"seed"/);
  });
});

describe('MCP over the WebSocket', () => {
  it('creates the connection’s episode and plays it with tools/call frames', async () => {
    const socket = new WebSocket(`${sim.url.replace('http', 'ws')}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const frames: Array<{ type: string; data: Rpc }> = [];
    const ask = (data: unknown) =>
      new Promise<Rpc>((resolve) => {
        socket.once('message', (raw) => {
          const frame = JSON.parse(raw.toString());
          frames.push(frame);
          resolve(frame.data);
        });
        socket.send(JSON.stringify({ type: 'mcp', data }));
      });
    await ask({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { env: 'CART', d: 1, seed: 2 } });
    const mirror = createEpisode({ envId: 'CART', d: 1, seed: 2 }, testCatalog());
    mirror.reset();
    const r = await ask({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'reply', arguments: { assistant_message: 'What are you looking for?' } },
    });
    const expected = mirror.step({ assistant_message: 'What are you looking for?', tool_calls: [], answer: null });
    expect(r.result!.structuredContent).toMatchObject({
      turn: 1,
      customer_message: expected.observation.customerMessage,
    });
    expect(frames.every((f) => f.type === 'mcp')).toBe(true);
    socket.close();
  });
});
