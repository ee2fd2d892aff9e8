// The WebSocket session and the node:http transport, against an in-process server on a free port.

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { EnvClientError, EnvHttpClient, EnvWsClient } from '@/clients/typescript/env-client';
import type { EnvServerConfig } from './config';
import { startEnvServer, type RunningEnvServer } from './server';
import { ADMIN, testConfig } from './test/helpers';

const running: RunningEnvServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function serve(overrides: Partial<EnvServerConfig> = {}) {
  const server = await startEnvServer(testConfig(overrides), testCatalog());
  running.push(server);
  return server;
}

function rawSocket(url: string): Promise<{
  socket: WebSocket;
  frames: Array<{ type: string; data: Record<string, unknown> }>;
  closed: Promise<number>;
}> {
  const socket = new WebSocket(url.replace('http', 'ws') + '/ws');
  const frames: Array<{ type: string; data: Record<string, unknown> }> = [];
  socket.on('message', (m) => frames.push(JSON.parse(m.toString())));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, frames, closed }));
    socket.once('error', reject);
  });
}

async function expectCode(p: Promise<unknown>, code: string, message?: string | RegExp) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EnvClientError);
  expect((err as EnvClientError).code).toBe(code);
  if (message) expect((err as EnvClientError).message).toMatch(message);
  return err as EnvClientError;
}

describe('WebSocket session', () => {
  it('answers bad messages with one error each and keeps the session open', async () => {
    const { url } = await serve();
    const ws = await EnvWsClient.connect(url);
    await expectCode(ws.sendRaw('{"type": "reset"'), 'INVALID_JSON', 'the message is not valid JSON');
    await expectCode(
      ws.sendRaw('{"type": "jump"}'),
      'UNKNOWN_TYPE',
      'unknown message type "jump"; types: reset, step, state, mcp, close',
    );
    await expectCode(ws.sendRaw('[1]'), 'UNKNOWN_TYPE', 'the message needs a "type"');
    await expectCode(ws.step({ assistant_message: 'hi', tool_calls: [], answer: null }), 'NO_EPISODE');
    const r = await ws.reset({ env: 'PD', d: 1, seed: 3 });
    const err = await expectCode(
      ws.step(42 as never),
      'VALIDATION_ERROR',
      'step: action: must be a JSON object or a string of model text',
    );
    expect(err.episodeId).toBe(r.episode_id);
    // a structured action that breaks the schema: VALIDATION_ERROR with pydantic-style errors; the episode goes on
    const refused = await ws.sendRaw<never>(JSON.stringify({ type: 'step', data: { assistant_message: '' } })).then(
      () => null,
      (e: EnvClientError) => e,
    );
    expect(refused?.code).toBe('VALIDATION_ERROR');
    const s = await ws.step({ assistant_message: 'Hello!', tool_calls: [], answer: null });
    expect(s.episode_id).toBe(r.episode_id);
    expect(s.observation.turn).toBe(1);
    expect(s.observation.tools).toEqual(r.observation.tools); // the reset's, kept per env by the client
    await ws.close();
  });

  it('puts episode_id on every frame (in the observation metadata, the state, the error)', async () => {
    const { url } = await serve();
    const { socket, frames } = await rawSocket(url);
    const send = (m: unknown) => socket.send(typeof m === 'string' ? m : JSON.stringify(m));
    send({ type: 'reset', data: { env: 'STATUS', d: 2, seed: 9 } });
    send({
      type: 'step',
      data: { assistant_message: 'Let me check.', tool_calls: [{ name: 'order.list', args: {} }], answer: null },
    });
    send({ type: 'state' });
    send('not json');
    send({ type: 'step', data: 'not json either' });
    await expect.poll(() => frames.length).toBe(5);
    const idOf = (f: (typeof frames)[number]) =>
      f.type === 'observation'
        ? (f.data.observation as { metadata: { episode_id: string } }).metadata.episode_id
        : f.data.episode_id;
    const id = idOf(frames[0]);
    expect(id).toMatch(/^c[0-9a-z]+$/);
    expect(frames.map((f) => f.type)).toEqual(['observation', 'observation', 'state', 'error', 'observation']);
    for (const f of frames) expect(idOf(f)).toBe(id);
    expect(frames[4].data).toMatchObject({
      done: true,
      reward: -1,
      observation: { metadata: { termination: 'format_invalid' } },
    });
    socket.close();
  });

  it('answers every message sent before a close, in order, before the close frame', async () => {
    const { url } = await serve();
    const sessions = await Promise.all([rawSocket(url), rawSocket(url)]);
    const step = { assistant_message: 'Let me check.', tool_calls: [{ name: 'order.list', args: {} }], answer: null };
    // one burst per socket, both sockets in the same event-loop turn
    for (const [i, { socket }] of sessions.entries()) {
      socket.send(JSON.stringify({ type: 'reset', data: { env: 'STATUS', d: 2, seed: 9 + i } }));
      socket.send(JSON.stringify({ type: 'step', data: step }));
      socket.send(JSON.stringify({ type: 'state' }));
      socket.send(JSON.stringify({ type: 'close' }));
    }
    for (const { frames, closed } of sessions) {
      expect(await closed).toBe(1000);
      expect(frames.map((f) => f.type)).toEqual(['observation', 'observation', 'state']);
      const meta = (frames[0].data.observation as { metadata: { episode_id: string } }).metadata;
      expect(frames[2].data).toMatchObject({ episode_id: meta.episode_id, turn: 1 });
    }
    expect(sessions[0].frames[2].data.episode_id).not.toBe(sessions[1].frames[2].data.episode_id);
  });

  it('gives the admin connection the hidden goal in simulation mode only', async () => {
    const sim = await serve();
    const admin = await EnvWsClient.connect(sim.url, { adminToken: ADMIN });
    await admin.reset({ env: 'PD', seed: 4 });
    expect(await admin.state()).toHaveProperty('hidden_goal');
    const agent = await EnvWsClient.connect(sim.url);
    await agent.reset({ env: 'PD', seed: 4 });
    expect(await agent.state()).not.toHaveProperty('hidden_goal');
    const prod = await serve({ mode: 'production' });
    const prodAdmin = await EnvWsClient.connect(prod.url, { adminToken: ADMIN });
    await expectCode(prodAdmin.reset({ env: 'PD', seed: 4 }), 'PRODUCTION_MODE', 'the server draws the seed');
    await prodAdmin.reset({ env: 'PD' });
    await expectCode(prodAdmin.state(), 'PRODUCTION_MODE');
    await expectCode(prodAdmin.reset({ env: 'PD', axis_overrides: { T_max: 2 } }), 'PRODUCTION_MODE');
    await Promise.all([admin.close(), agent.close(), prodAdmin.close()]);
  });

  it('refuses a connection over the cap with CAPACITY_REACHED and close code 1013', async () => {
    const { url } = await serve({ maxSessions: 1 });
    const first = await EnvWsClient.connect(url);
    const { frames, closed } = await rawSocket(url);
    expect(await closed).toBe(1013);
    expect(frames[0]).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED' } });
    await first.close();
  });

  it('caps the sessions one client holds, and frees its slot when one closes', async () => {
    const { url } = await serve({ maxSessions: 10, maxSessionsPerClient: 2 });
    const [a, b] = await Promise.all([EnvWsClient.connect(url), EnvWsClient.connect(url)]);
    const third = await rawSocket(url);
    expect(await third.closed).toBe(1013);
    expect(third.frames[0]).toMatchObject({
      type: 'error',
      data: { code: 'CAPACITY_REACHED', message: /MAX_SESSIONS_PER_CLIENT=2/ },
    });
    await a.close();
    const again = await EnvWsClient.connect(url);
    expect((await again.reset({ env: 'PD', seed: 1 })).episode_id).toMatch(/^c[0-9a-z]+$/);
    await Promise.all([b.close(), again.close()]);
  });

  it('closes an idle session with SESSION_TIMEOUT and close code 4008', async () => {
    const { url } = await serve({ idleTimeoutMs: 300 });
    const { frames, closed } = await rawSocket(url);
    expect(await closed).toBe(4008);
    expect(frames[0]).toMatchObject({ type: 'error', data: { code: 'SESSION_TIMEOUT' } });
  });

  it('drops the unfinished episode when the session resets again or disconnects', async () => {
    const server = await serve();
    const ws = await EnvWsClient.connect(server.url);
    const first = await ws.reset({ env: 'PD', seed: 1 });
    await ws.reset({ env: 'PD', seed: 2 });
    expect(server.service.sessions.has(first.episode_id)).toBe(false);
    expect(server.service.sessions.size).toBe(1);
    await ws.close();
    await expect.poll(() => server.service.sessions.size).toBe(0);
  });

  it('closes the connection (1009) on a message over the size limit', async () => {
    const { url } = await serve({ maxBodyBytes: 2048 });
    const { socket, closed } = await rawSocket(url);
    socket.send(JSON.stringify({ type: 'step', data: { assistant_message: 'x'.repeat(4096) } }));
    expect(await closed).toBe(1009);
  });
});

describe('HTTP transport', () => {
  it('refuses a body over the limit with BODY_TOO_LARGE', async () => {
    const { url } = await serve({ maxBodyBytes: 2048 });
    const res = await fetch(`${url}/step`, {
      method: 'POST',
      body: JSON.stringify({ episode_id: 'ep_x', action: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: {
        code: 'BODY_TOO_LARGE',
        message: 'the request body is larger than 2048 bytes (ECOMRLVE_MAX_BODY_BYTES)',
      },
    });
  });

  it('plays an episode through the client, with the token kept per episode', async () => {
    const { url } = await serve();
    const client = new EnvHttpClient(url);
    const a = await client.reset({ env: 'PD', d: 2, seed: 8, run: 'http-test' });
    const b = await client.reset({ env: 'POLICY', d: 2, seed: 8 });
    const sa = await client.step(a.episode_id, {
      assistant_message: 'Searching.',
      tool_calls: [{ name: 'catalog.search', args: { query: 'shoes' } }],
      answer: null,
    });
    expect(sa.observation.toolResults[0].error).toBe(null);
    const sb = await client.step(b.episode_id, { assistant_message: 'One moment.', tool_calls: [], answer: null });
    expect(sb.episode_id).toBe(b.episode_id);
    // The wire sends tools with the reset only; the client gives each step its own episode's back.
    expect(sa.observation.tools).toEqual(a.observation.tools);
    expect(sb.observation.tools).toEqual(b.observation.tools);
    expect(sa.observation.tools).not.toEqual(sb.observation.tools);
    expect(await client.state(a.episode_id)).toMatchObject({ step_count: 1, run: 'http-test' });
    const stranger = new EnvHttpClient(url);
    await expectCode(
      stranger.step(a.episode_id, { assistant_message: 'hi', tool_calls: [], answer: null }),
      'BAD_TOKEN',
    );
    expect((await client.info()).active_sessions).toBe(2);
  });

  it('answers a WebSocket upgrade elsewhere than /ws with 404', async () => {
    const { url } = await serve();
    const socket = new WebSocket(url.replace('http', 'ws') + '/socket');
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)).on('error', () => resolve(-1)),
    );
    expect(status).toBe(404);
  });
});
