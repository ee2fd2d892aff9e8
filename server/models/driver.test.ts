// A model's turns against the scripted fake endpoint: each failure mode is classified
// (infrastructure vs the model's own doing), retried or not, and recorded.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEpisode, type EpisodeConfig } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { parseConnection, type ConnectionInput } from './connection';
import { callModel } from './client';
import { buildRequest } from './table';
import { playModelEpisode } from './test/play-model';
import { startFakeEndpoint, type FakeEndpoint, type FakeStep } from './test/fake-endpoint';

// A fresh endpoint per episode, so a request still in flight from one test cannot take another's step.
let fake: FakeEndpoint;
const endpoints: FakeEndpoint[] = [];
async function freshEndpoint(steps: FakeStep[]) {
  fake = await startFakeEndpoint(steps);
  endpoints.push(fake);
  return fake;
}
beforeAll(() => void testCatalog());
afterAll(() => Promise.all(endpoints.map((e) => e.close())));

const PD: EpisodeConfig = { envId: 'PD', d: 0, seed: 1 };
const answerStep: FakeStep = {
  kind: 'reply',
  content: 'Here you go.',
  toolCalls: [{ name: 'submit_answer', arguments: '{"recommended_product_ids":[]}' }],
};
const connection = (extra: Partial<ConnectionInput> = {}) =>
  parseConnection({ name: 'fake', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 2, timeoutMs: 2000, ...extra }, {});

async function play(
  steps: FakeStep[],
  extra: Partial<ConnectionInput> = {},
  options: Parameters<typeof playModelEpisode>[3] = {},
) {
  await freshEndpoint(steps);
  return playModelEpisode(PD, testCatalog(), connection(extra), { backoffMs: 1, ...options });
}

describe('driver: infrastructure failures', () => {
  it('retries a 500 and goes on with the good reply', async () => {
    const r = await play([{ kind: 'status', status: 500 }, answerStep]);
    expect(r.status).toBe('completed');
    expect(r.episode.termination).toBe('answered');
    expect(r.records[0].attempts.map((a) => [a.ok, a.kind, a.status])).toEqual([
      [false, 'http', 500],
      [true, undefined, undefined],
    ]);
  });

  it('gives up after maxRetries + 1 attempts: infra_error, the episode is not stepped and has no reward', async () => {
    const r = await play([{ kind: 'status', status: 503, body: 'overloaded' }]);
    expect(r.status).toBe('infra_error');
    expect(r.infra).toMatchObject({ kind: 'http', turn: 1 });
    expect(r.infra!.message).toMatch(/HTTP 503 .*overloaded/);
    expect(fake.requests).toHaveLength(3);
    expect(r.episode.turn).toBe(0);
    expect(r.episode.breakdown).toBeNull();
    expect(r.actions).toEqual([]);
  });

  it('does not retry a 400 (the same request would fail again)', async () => {
    const r = await play([{ kind: 'status', status: 400, body: 'context too long' }]);
    expect(r.status).toBe('infra_error');
    expect(fake.requests).toHaveLength(1);
  });

  it('classifies a reply that never comes as a timeout', async () => {
    const r = await play([{ kind: 'hang' }], { timeoutMs: 150, maxRetries: 1 });
    expect(r.status).toBe('infra_error');
    expect(r.infra!.kind).toBe('timeout');
    // each attempt of the failed call is recorded as a timeout
    const opening = createEpisode(PD, testCatalog()).reset().observation;
    const c = connection({ timeoutMs: 150, maxRetries: 1 });
    const call = await callModel(c, buildRequest(c, { observations: [opening], actions: [] }), { backoffMs: 1 });
    expect(call.ok || call.infra.kind).toBe('timeout');
    expect(call.attempts.map((a) => a.kind)).toEqual(['timeout', 'timeout']);
  });

  it('classifies a non-JSON 200 body and a dropped socket as infrastructure failures', async () => {
    let r = await play([{ kind: 'garbage', body: '<html>502 Bad Gateway</html>' }], { maxRetries: 0 });
    expect(r.infra).toMatchObject({ kind: 'bad_response' });
    expect(r.infra!.message).toMatch(/not JSON/);
    r = await play([{ kind: 'drop' }, answerStep]);
    expect(r.status).toBe('completed');
    expect(r.records[0].attempts[0]).toMatchObject({ ok: false, kind: 'connection' });
  });

  it('classifies a refused connection', async () => {
    const closed = await startFakeEndpoint();
    await closed.close();
    const r = await playModelEpisode(
      PD,
      testCatalog(),
      parseConnection({ name: 'gone', baseUrl: closed.baseUrl, model: 'x', maxRetries: 0 }, {}),
    );
    expect(r.infra).toMatchObject({ kind: 'connection' });
    expect(r.infra!.message).toMatch(/ECONNREFUSED/);
  });

  it('a stream that stalls past the deadline is a timeout; a slow one within it is assembled', async () => {
    let r = await play([{ kind: 'stream', pieces: ['Let me ', 'think'], delayMs: 20, stall: true }], {
      stream: true,
      timeoutMs: 300,
      maxRetries: 0,
    });
    expect(r.infra).toMatchObject({ kind: 'timeout' });
    const deltas: string[] = [];
    r = await play(
      [
        {
          kind: 'stream',
          pieces: ['Here ', 'you ', 'go.'],
          delayMs: 30,
          toolCalls: [{ name: 'submit_answer', arguments: '{"recommended_product_ids":[]}' }],
        },
      ],
      { stream: true },
      { onPartial: (p) => deltas.push(p.content ?? '') },
    );
    expect(r.status).toBe('completed');
    expect(r.records[0].reply.content).toBe('Here you go.');
    expect(deltas.slice(0, 3)).toEqual(['Here ', 'Here you ', 'Here you go.']);
    expect(r.episode.termination).toBe('answered');
    expect(fake.requests[0].body!.stream).toBe(true);
  });

  it('a cancelled run is neither a reward nor an infrastructure failure', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const r = await play([{ kind: 'hang' }], { timeoutMs: 5000 }, { signal: controller.signal });
    expect(r.status).toBe('cancelled');
    expect(r.episode.breakdown).toBeNull();
  });
});

describe('driver: streamed replies', () => {
  const calls = [
    { name: 'catalog_search', arguments: '{"query":"usb-c charger 65w","limit":5}' },
    { name: 'catalog_search', arguments: '{"query":"laptop charger"}' },
  ];

  it('tool-call deltas (name first, arguments in pieces, two calls) make the same action as the whole reply', async () => {
    const whole = await play([{ kind: 'reply', content: 'Let me look.', toolCalls: calls }, answerStep]);
    const partials: Array<{ content: string | null; calls: string[] }> = [];
    const streamed = await play(
      [{ kind: 'stream', pieces: ['Let ', 'me ', 'look.'], delayMs: 1, toolCalls: calls }, answerStep],
      { stream: true },
      { onPartial: (p) => partials.push({ content: p.content, calls: p.toolCalls.map((c) => c.function.arguments) }) },
    );
    expect(streamed.actions[0]).toEqual(whole.actions[0]);
    expect(whole.actions[0]).toMatchObject({
      assistant_message: 'Let me look.',
      tool_calls: [
        { name: 'catalog.search', args: { query: 'usb-c charger 65w', limit: 5 } },
        { name: 'catalog.search', args: { query: 'laptop charger' } },
      ],
    });
    expect(streamed.records[0].reply.toolCalls).toEqual(whole.records[0].reply.toolCalls);
    expect(streamed.episode.events).toEqual(whole.episode.events);
    // the partials grow: text first, then the first call's arguments piece by piece, then the second's
    expect(partials[0]).toEqual({ content: 'Let ', calls: [] });
    expect(partials.some((p) => p.calls.length === 1 && p.calls[0] === '{"query"')).toBe(true);
    expect(partials.at(-1)).toEqual({ content: 'Let me look.', calls: calls.map((c) => c.arguments) });
  });
});

describe("driver: the model's own output is scored, not retried", () => {
  it('prose instead of tool calls is a message to the customer, and the episode goes on', async () => {
    const r = await play([{ kind: 'reply', content: 'What is your budget?' }, answerStep]);
    expect(r.status).toBe('completed');
    expect(r.actions[0]).toEqual({ assistant_message: 'What is your budget?', tool_calls: [], answer: null });
    expect(r.episode.turn).toBe(2);
    expect(r.records[0].attempts).toHaveLength(1);
  });

  it('invalid JSON in tool arguments reaches the engine, which answers with a schema error for that call', async () => {
    const r = await play([
      { kind: 'reply', content: 'Searching.', toolCalls: [{ name: 'catalog_search', arguments: '{"query": "usb' }] },
      answerStep,
    ]);
    expect(r.status).toBe('completed');
    const call = r.episode.events.find((e) => e.kind === 'tool_call');
    expect(call).toMatchObject({ name: 'catalog.search', args: '{"query": "usb', result: null });
    expect((call as { error: string }).error).toMatch(/catalog.search: args must be a JSON object/);
    // the next request shows the model that error as the call's result
    const toolMessage = fake.requests[1].body!.messages.find((m) => m.role === 'tool') as { content: string };
    expect(JSON.parse(toolMessage.content).error).toMatch(/args must be a JSON object/);
  });

  it('JSON mode: text that is not a JSON action ends the episode as format_invalid (−1)', async () => {
    const r = await play([{ kind: 'reply', content: 'Sure! I will look for chargers.' }], { actionMode: 'json' });
    expect(r.status).toBe('completed');
    expect(r.episode.termination).toBe('format_invalid');
    expect(r.episode.breakdown!.total).toBe(-1);
  });

  it('JSON mode: a fenced JSON action is read', async () => {
    const action = {
      assistant_message: 'Done.',
      tool_calls: [],
      answer: { env: 'PD', done: true, recommended_product_ids: [] },
    };
    const r = await play([{ kind: 'reply', content: '```json\n' + JSON.stringify(action) + '\n```' }], {
      actionMode: 'json',
    });
    expect(r.episode.termination).toBe('answered');
  });

  it('tool mode: a final message holding the answer as JSON becomes the answer', async () => {
    const r = await play([{ kind: 'reply', content: '{"recommended_product_ids": []}' }]);
    expect(r.episode.termination).toBe('answered');
  });
});

describe('driver: API keys', () => {
  it('sends the key only as a header; records, errors and recorded bodies never contain it', async () => {
    const marker = 'sk-MARKER-9f2c1e';
    const env = { MARKER_API_KEY: marker };
    // the endpoint echoes the Authorization header back in its error body
    const echo: FakeStep = { kind: 'status', status: 500, body: (req) => `bad key ${req.headers.authorization}` };
    const logs: string[] = [];
    await freshEndpoint([echo, answerStep]);
    const r = await playModelEpisode(PD, testCatalog(), connection({ apiKeyEnv: 'MARKER_API_KEY' }), {
      backoffMs: 1,
      env,
    });
    logs.push(JSON.stringify(r.records), JSON.stringify(r.actions), JSON.stringify(r.episode.events));
    expect(r.status).toBe('completed');
    expect(fake.requests.every((q) => q.headers.authorization === `Bearer ${marker}`)).toBe(true);
    expect(fake.requests.every((q) => !q.raw.includes(marker))).toBe(true);
    expect(r.records[0].attempts[0].error).toContain('bad key Bearer [redacted]');
    for (const line of logs) expect(line).not.toContain(marker);
  });

  it('a missing key variable is a configuration failure naming the variable', async () => {
    const r = await play([answerStep], { apiKeyEnv: 'NOT_SET_ANYWHERE_API_KEY' }, { env: {} });
    expect(r.status).toBe('infra_error');
    expect(r.infra).toMatchObject({
      kind: 'config',
      message: 'environment variable NOT_SET_ANYWHERE_API_KEY (the API key) is not set on the server',
    });
    expect(fake.requests).toHaveLength(0);
  });
});
