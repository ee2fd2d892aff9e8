// The optional LLM customer (issue 9 item 8, SPEC §9) with the fake endpoint: its wording
// reaches the agent seat (and a model playing), the replay reads what was recorded without the
// endpoint, a failure or a rewrite that changes a fact keeps the template and says why, and the
// rewriter is given the templated text only: no goal value the template does not already say.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_IDS } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { fieldNames, leakedValues, secretValues } from '@/server/episodes/test/goal-scan';
import { toSeatView } from '@/server/episodes/seat';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { type ConnectionStore } from './connection';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { CUSTOMER_VOICE_PROMPT, createCustomerVoice, factCheck } from './customer-voice';
import { playTableTurn } from './table';
import { startFakeEndpoint, type FakeEndpoint, type FakeStep } from './test/fake-endpoint';

let db: TestDb;
let service: EpisodeService;
let fake: FakeEndpoint;
let store: ConnectionStore;
const MARKER = 'sk-MARKER-voice-41d9';

// "Hey! " + the template: the same facts, different wording
const friendly: FakeStep = {
  kind: 'fn',
  fn: (req) => ({ kind: 'reply', content: `Hey! ${req.body!.messages.at(-1)!.content}` }),
};

beforeAll(async () => {
  db = createTestDb();
  store = createMemoryConnectionStore({});
  fake = await startFakeEndpoint([friendly]);
  await store.save({ name: 'voice', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 1, apiKeyEnv: 'VOICE_API_KEY' });
  service = createEpisodeService({
    prisma: db.prisma,
    getCatalog: testCatalog,
    defaultCatalogId: testCatalog().id,
    customerVoice: createCustomerVoice(store, { env: { VOICE_API_KEY: MARKER }, backoffMs: 1 }),
  });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await db?.cleanup();
});

const customerTexts = (events: Array<{ kind: string; text?: string }>) =>
  events.filter((e) => e.kind === 'customer_message').map((e) => e.text);

describe('the LLM customer', { timeout: 120_000 }, () => {
  it('rewrites each customer message; the agent seat and a playing model read its words; replay reads the record, not the model', async () => {
    fake.script([friendly]);
    const ep = await service.startEpisode({ envId: 'PD', d: 3, seed: 7, customerVoice: 'voice' });
    const template = ep.events[0].kind === 'customer_message' ? ep.events[0].text : '';
    expect(ep.customerRewrites).toEqual([
      { turn: 0, template, text: `Hey! ${template}`, by: 'model:voice', fallback: null },
    ]);
    expect(customerTexts(toSeatView(ep).events)).toEqual([`Hey! ${template}`]);
    // the engine's own log keeps the template (the rewrite sits beside it)
    expect(customerTexts(ep.events)).toEqual([template]);

    // a person's turn: the customer's reply is rewritten too
    const after = await service.submitAction(ep.id, {
      assistant_message: 'What is your budget, and which brand do you prefer?',
      tool_calls: [],
      answer: null,
    });
    const seat = toSeatView(after);
    expect(customerTexts(seat.events)).toHaveLength(2);
    expect(customerTexts(seat.events).every((t) => t!.startsWith('Hey! '))).toBe(true);

    // a model playing the next turn is sent the customer's rewritten words, never the template alone
    const model = await startFakeEndpoint([{ kind: 'reply', content: 'Let me look.' }]);
    try {
      await playTableTurn(service, testCatalog, ep.id, {
        kind: 'model',
        connection: (await createMemoryConnectionStore({}).save({
          name: 'agent',
          baseUrl: model.baseUrl,
          model: 'm',
        }))!,
      });
      const sent = model.requests[0].raw;
      for (const text of customerTexts(seat.events)) expect(sent).toContain(JSON.stringify(text).slice(1, -1));
    } finally {
      await model.close();
    }

    // replay without the endpoint: the same words, and no new request
    const before = await service.getEpisode(ep.id);
    const asked = fake.requests.length;
    fake.script([{ kind: 'status', status: 500 }]);
    service.clearLive();
    const replayed = await service.getEpisode(ep.id);
    expect(replayed.customerRewrites).toEqual(before.customerRewrites);
    expect(toSeatView(replayed).events).toEqual(toSeatView(before).events);
    expect(replayed.customerRewrites).toHaveLength(3);
    await service.getWorld(ep.id); // rebuilt by replay from the stored actions
    expect(fake.requests.length).toBe(asked);

    // a fork keeps the parent's recorded words for the turns it copies
    const fork = await service.forkEpisode(ep.id, 1);
    expect(toSeatView(fork).events).toEqual(toSeatView(before).events.filter((e) => e.turn <= 1));
    expect(fake.requests.length).toBe(asked);

    // the key went only into the Authorization header: not into the records, the views or the database
    expect(fake.requests.slice(0, asked).every((q) => q.headers.authorization === `Bearer ${MARKER}`)).toBe(true);
    const rows = await db.prisma.customerRewrite.findMany();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => JSON.parse(r.record!).request.messages.length === 2)).toBe(true);
    const stored = rows.map((r) => JSON.stringify(r));
    expect([...stored, JSON.stringify(replayed), JSON.stringify(fork)].filter((r) => r.includes(MARKER))).toEqual([]);
  });

  it('a failing endpoint or a rewrite that changes a fact keeps the template, and says why', async () => {
    fake.script([{ kind: 'status', status: 503 }]);
    const ep = await service.startEpisode({ envId: 'CART', d: 4, seed: 3, customerVoice: 'voice' });
    const [rewrite] = ep.customerRewrites!;
    expect(rewrite.text).toBe(rewrite.template);
    expect(rewrite.fallback).toMatch(/^infrastructure failure \(http\): HTTP 503/);
    expect(customerTexts(toSeatView(ep).events)).toEqual([rewrite.template]);

    fake.script([{ kind: 'reply', content: 'I need 99 of the cheapest thing you have.' }]);
    const changed = await service.startEpisode({ envId: 'CART', d: 4, seed: 3, customerVoice: 'voice' });
    expect(changed.customerRewrites![0].fallback).toMatch(/^the rewrite (dropped|added) /);
    expect(changed.customerRewrites![0].text).toBe(changed.customerRewrites![0].template);
  });

  it('an unknown voice is refused before the episode starts', async () => {
    await expect(service.startEpisode({ envId: 'PD', d: 0, customerVoice: 'nobody' })).rejects.toThrow(
      'no model connection named "nobody" for the customer\'s voice',
    );
  });

  it('is given the templated text only: no goal value the template does not say (8 envs × d 3, 9 × seeds 1–2)', async () => {
    fake.script([friendly]);
    let scanned = 0;
    for (const envId of ENV_IDS)
      for (const d of [3, 9])
        for (const seed of [1, 2]) {
          const first = fake.requests.length;
          const ep = await service.startEpisode({ envId, d, seed, customerVoice: 'voice' });
          await service.submitAction(ep.id, {
            assistant_message: 'Could you tell me more about what you need?',
            tool_calls: [],
            answer: null,
          });
          const full = await service.getEpisode(ep.id);
          for (const [i, req] of fake.requests.slice(first).entries()) {
            const template = full.customerRewrites![i].template;
            expect(req.body!.messages).toEqual([
              { role: 'system', content: CUSTOMER_VOICE_PROMPT },
              { role: 'user', content: template },
            ]);
            expect(req.body!.tools).toBeUndefined();
            const secrets = secretValues(full.hiddenGoal, template + CUSTOMER_VOICE_PROMPT + fieldNames(req.body));
            expect(leakedValues(req.raw, secrets), `${envId} d=${d} seed=${seed}`).toEqual([]);
            scanned += secrets.length;
          }
        }
    expect(scanned).toBeGreaterThan(100);
  });
});

describe('the fact check', () => {
  it('accepts new wording with the same numbers and ids, refuses a dropped or added one', () => {
    const t = 'need 2 usb-c chargers under $45 for order ORD-1042 pls';
    expect(factCheck(t, 'Hi! I need 2 USB-C chargers, under $45, for my order ORD-1042.')).toBeNull();
    expect(factCheck(t, 'I need two USB-C chargers under $45 for order ORD-1042.')).toBe('the rewrite dropped "2"');
    expect(factCheck(t, 'I need 2 USB-C chargers under $45 for order ORD-1042, maybe 3.')).toBe(
      'the rewrite added "3"',
    );
    expect(factCheck(t, '   ')).toBe('the rewrite is empty');
  });
});
