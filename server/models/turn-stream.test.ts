// The playground's streamed model turn: partials arrive before the turn is committed, the
// committed turn is the same action a whole reply gives, a stalled stream shows its partial
// but takes no turn (an infrastructure failure), and bad requests get one precise error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { AppError } from '@/server/lib/errors';
import { readTurnStream, type TurnPartial } from '@/lib/turn-stream';
import { type ConnectionStore } from './connection';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { playTableTurn } from './table';
import { startFakeEndpoint, type FakeEndpoint, type FakeStep } from './test/fake-endpoint';
import { resolveTablePlayer, turnEventStream } from './turn-stream';

let db: TestDb;
let service: EpisodeService;
let fake: FakeEndpoint;
let store: ConnectionStore;
const noAdmin = (what: string) => {
  throw new AppError('UNAUTHORIZED', `${what} needs the admin token`);
};

beforeAll(async () => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: testCatalog, defaultCatalogId: testCatalog().id });
  fake = await startFakeEndpoint();
  store = createMemoryConnectionStore({});
  // stream is off in the connection: the playground asks for it anyway
  await store.save({
    name: 'slow',
    baseUrl: fake.baseUrl,
    model: 'fake',
    maxRetries: 0,
    timeoutMs: 1500,
    public: true,
  });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await db?.cleanup();
});

const search = { name: 'catalog_search', arguments: '{"query":"usb-c charger","limit":5}' };

async function streamedTurn(episodeId: string, steps: FakeStep[]) {
  fake.script(steps);
  const player = await resolveTablePlayer(store, { player: { connection: 'slow' } }, noAdmin);
  const partials: TurnPartial[] = [];
  const stream = turnEventStream(
    (onPartial) => playTableTurn(service, testCatalog, episodeId, player, { onPartial, backoffMs: 1 }),
    (e) => ({ error: (e as Error).message, code: 'INTERNAL' }),
  );
  const result = await readTurnStream(stream, (p) => partials.push(p));
  return { result, partials };
}

describe('a streamed model turn', { timeout: 60_000 }, () => {
  it('sends partials as the reply grows, then the committed turn (the same action as the whole reply)', async () => {
    const ep = await service.startEpisode({ envId: 'PD', d: 2, seed: 4 });
    const { result, partials } = await streamedTurn(ep.id, [
      { kind: 'stream', pieces: ['Let me ', 'look for ', 'that.'], delayMs: 5, toolCalls: [search] },
    ]);
    expect(fake.requests.at(-1)!.body!.stream).toBe(true);
    expect(partials.map((p) => p.content).slice(0, 3)).toEqual([
      'Let me ',
      'Let me look for ',
      'Let me look for that.',
    ]);
    expect(partials.at(-1)).toEqual({ content: 'Let me look for that.', toolCalls: [search] });
    expect(
      partials.some((p) => p.toolCalls.length === 1 && p.toolCalls[0].arguments.length < search.arguments.length),
    ).toBe(true);
    if (!result.ok || !result.turn.ok) throw new Error(`no turn: ${JSON.stringify(result)}`);
    const turn1 = result.turn.episode.events.filter((e) => e.turn === 1);
    expect(turn1[0]).toMatchObject({ kind: 'agent_message', text: 'Let me look for that.' });
    expect(turn1[1]).toMatchObject({
      kind: 'tool_call',
      name: 'catalog.search',
      args: { query: 'usb-c charger', limit: 5 },
    });
    expect(result.turn.episode.seed).toBeNull(); // the agent seat's view: no seed, no goal while active
    expect(result.turn.episode.hiddenGoal).toBeNull();

    // the same reply, not streamed, on a twin episode: the same stored events
    const twin = await service.startEpisode({ envId: 'PD', d: 2, seed: 4 });
    fake.script([{ kind: 'reply', content: 'Let me look for that.', toolCalls: [search] }]);
    await playTableTurn(service, testCatalog, twin.id, {
      kind: 'model',
      connection: { ...(await store.get('slow'))!, stream: false },
    });
    const events = async (id: string) => (await service.getEpisode(id)).events;
    expect(await events(twin.id)).toEqual(await events(ep.id));
  });

  it('a stream that stalls shows its partial but takes no turn: an infrastructure failure, not scored', async () => {
    const ep = await service.startEpisode({ envId: 'PD', d: 2, seed: 5 });
    const { result, partials } = await streamedTurn(ep.id, [
      { kind: 'stream', pieces: ['I will ', 'search'], delayMs: 5, stall: true },
    ]);
    expect(partials.map((p) => p.content)).toEqual(['I will ', 'I will search']);
    if (!result.ok) throw new Error(result.error);
    expect(result.turn).toMatchObject({ ok: false, infra: { kind: 'timeout', turn: 1 } });
    const stored = await service.getEpisode(ep.id);
    expect(stored.turn).toBe(0);
    expect(stored.events.some((e) => e.kind === 'agent_message')).toBe(false);
    expect(stored.reward).toBeNull();
  });

  it('an error while taking the turn ends the stream with one error event', async () => {
    const stream = turnEventStream(
      async () => {
        throw new AppError('EPISODE_DONE', 'episode x is finished (answered); it takes no more actions');
      },
      (e) => ({ error: (e as Error).message, code: (e as AppError).code }),
    );
    expect(await readTurnStream(stream, () => {})).toEqual({
      ok: false,
      error: 'episode x is finished (answered); it takes no more actions',
      code: 'EPISODE_DONE',
    });
  });
});

describe('who may take the turn', () => {
  it('refuses a bad body, an unknown agent or connection, and the oracle without the admin', async () => {
    await expect(resolveTablePlayer(store, { player: 'heuristic' }, noAdmin)).rejects.toThrow(/the body must be/);
    await expect(resolveTablePlayer(store, { player: { agent: 'genius' } }, noAdmin)).rejects.toThrow(
      'unknown built-in agent "genius"; choose oracle, heuristic, random',
    );
    await expect(resolveTablePlayer(store, { player: { connection: 'nope' } }, () => {})).rejects.toThrow(
      'no model connection named "nope"',
    );
    await expect(resolveTablePlayer(store, { player: { agent: 'oracle' } }, noAdmin)).rejects.toThrow(
      'the oracle (it reads the hidden goal) needs the admin token',
    );
    expect(await resolveTablePlayer(store, { player: { agent: 'oracle' } }, () => {})).toEqual({
      kind: 'agent',
      agent: 'oracle',
    });
    expect(await resolveTablePlayer(store, { player: { agent: 'heuristic' } }, noAdmin)).toEqual({
      kind: 'agent',
      agent: 'heuristic',
    });
  });
});
