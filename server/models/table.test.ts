// Stored model play: a model (over real HTTP) or a built-in agent takes turns of a stored
// episode through the episode service; every step records who acted; a model's request
// and reply are stored without the key; infrastructure failures are marked, not scored;
// a person can take over and hand back; forks replay the parent's first turns exactly.

import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicAgent, ENV_IDS, playEpisode, type Action } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { createAgentServer, listen } from '@/scripts/agent-server/server';
import { parseConnection } from './connection';
import { playTableTurn, type TablePlayer } from './table';
import { playTableEpisode } from './test/table-episode';
import { startFakeEndpoint, type FakeEndpoint } from './test/fake-endpoint';

const MARKER = 'sk-MARKER-table-5c1e7a';
const env = { LOCAL_API_KEY: MARKER };
let db: TestDb;
let service: EpisodeService;
let server: Server;
let port: number;
const fakes: FakeEndpoint[] = [];
const catalogOf = () => testCatalog();

beforeAll(async () => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: catalogOf, defaultCatalogId: testCatalog().id });
  server = createAgentServer({ agent: 'heuristic', port: 0 });
  port = await listen(server, 0);
  testCatalog();
}, 120_000);
afterAll(async () => {
  server?.close();
  await Promise.all(fakes.map((f) => f.close()));
  await db?.cleanup();
});

const model = (): TablePlayer => ({
  kind: 'model',
  connection: parseConnection(
    {
      name: 'local',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'heuristic',
      apiKeyEnv: 'LOCAL_API_KEY',
      maxRetries: 0,
    },
    env,
  ),
});
const opts = { env, backoffMs: 1 };

async function actors(id: string) {
  return (await service.turnRecords(id)).map((r) => r.actor);
}

// HTTP turns and SQLite writes on a shared machine: generous per-test limits (not speed checks).
describe('stored model play', { timeout: 180_000 }, () => {
  it('a model over HTTP plays stored episodes to the same rewards as the in-process heuristic, every turn recorded as its own', async () => {
    for (const envId of ENV_IDS) {
      const config = { envId, d: 3, seed: 7 };
      const local = playEpisode(config, testCatalog(), createHeuristicAgent()).episode;
      const started = await service.startEpisode({ ...config, player: 'model:local' });
      const last = await playTableEpisode(service, catalogOf, started.id, model(), opts);
      expect(last.ok, envId).toBe(true);
      const stored = await service.getEpisode(started.id);
      expect(stored.status, envId).toBe('done');
      expect(stored.breakdown!.total, envId).toBe(local.breakdown!.total); // the REAL column may round by one ulp; the JSON breakdown is exact
      expect(stored.events, envId).toEqual(local.events);
      const records = await service.turnRecords(started.id);
      expect(records.map((r) => r.actor)).toEqual(Array(local.turn).fill('model:local'));
      expect(
        records.every((r) => (r.modelRecord as { request: { messages: unknown[] } }).request.messages.length > 1),
      ).toBe(true);
    }
  });

  it('built-in agents act through the same service and match their in-process rewards', async () => {
    const config = { envId: 'PD' as const, d: 3, seed: 11 };
    const local = playEpisode(config, testCatalog(), createHeuristicAgent()).episode;
    const started = await service.startEpisode({ ...config, player: 'heuristic' });
    await playTableEpisode(service, catalogOf, started.id, { kind: 'agent', agent: 'heuristic' });
    expect((await service.getEpisode(started.id)).breakdown!.total).toBe(local.breakdown!.total);
    const oracle = await service.startEpisode({ ...config, player: 'oracle' });
    await playTableEpisode(service, catalogOf, oracle.id, { kind: 'agent', agent: 'oracle' });
    const done = await service.getEpisode(oracle.id);
    expect(done.isCorrect).toBe(true);
    expect(await actors(oracle.id)).toEqual(Array(done.turn).fill('oracle'));
  });

  it('take-over: the model plays, a person takes turns, the model takes it back; each turn says who', async () => {
    const started = await service.startEpisode({ envId: 'PD', d: 6, seed: 3 });
    await playTableTurn(service, catalogOf, started.id, model(), opts);
    const person: Action = { assistant_message: 'Could you tell me your budget?', tool_calls: [], answer: null };
    await service.submitAction(started.id, person, { actor: 'human' });
    const back = await playTableTurn(service, catalogOf, started.id, model(), opts);
    expect(back.ok).toBe(true);
    expect(await actors(started.id)).toEqual(['model:local', 'human', 'model:local']);
    const records = await service.turnRecords(started.id);
    expect(records[1].modelRecord).toBeNull();
    // the model's third request carries the person's turn as its own past turn
    const third = records[2].modelRecord as { request: { messages: Array<{ role: string; content: string | null }> } };
    expect(
      third.request.messages.some((m) => m.role === 'assistant' && m.content === 'Could you tell me your budget?'),
    ).toBe(true);
  });

  it('an infrastructure failure leaves the episode unstepped and unscored, marked as such; a good turn clears it', async () => {
    const fake = await startFakeEndpoint([{ kind: 'status', status: 503, body: 'overloaded' }]);
    fakes.push(fake);
    const broken: TablePlayer = {
      kind: 'model',
      connection: parseConnection({ name: 'flaky', baseUrl: fake.baseUrl, model: 'x', maxRetries: 1 }, {}),
    };
    const started = await service.startEpisode({ envId: 'PD', d: 1, seed: 2 });
    const turn = await playTableTurn(service, catalogOf, started.id, broken, opts);
    expect(turn.ok).toBe(false);
    if (!turn.ok) expect(turn.infra).toMatchObject({ kind: 'http', turn: 1 });
    expect(fake.requests).toHaveLength(2);
    let stored = await service.getEpisode(started.id);
    expect([stored.turn, stored.status, stored.reward]).toEqual([0, 'active', null]);
    expect(stored.infraError).toMatchObject({ kind: 'http', turn: 1 });
    await playTableTurn(service, catalogOf, started.id, model(), opts);
    stored = await service.getEpisode(started.id);
    expect(stored.turn).toBe(1);
    expect(stored.infraError).toBeNull();
  });

  it('no key value reaches the database', async () => {
    const rows = [
      ...(await db.prisma.episodeAction.findMany()).map((r) => JSON.stringify(r)),
      ...(await db.prisma.episodeEvent.findMany()).map((r) => r.payload),
      ...(await db.prisma.episode.findMany()).map((r) => JSON.stringify(r)),
    ];
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.some((r) => r.includes('model:local'))).toBe(true);
    expect(rows.filter((r) => r.includes(MARKER))).toEqual([]);
  });
});

describe('forks', { timeout: 120_000 }, () => {
  it('replays the first k turns byte-identically, copies who took them, and can be continued by a model', async () => {
    const parent = await service.startEpisode({ envId: 'PD', d: 3, seed: 21 });
    await playTableTurn(service, catalogOf, parent.id, model(), opts);
    await service.submitAction(
      parent.id,
      { assistant_message: 'Any colour preference?', tool_calls: [], answer: null },
      { actor: 'human' },
    );
    await playTableEpisode(service, catalogOf, parent.id, model(), opts);
    expect((await service.getEpisode(parent.id)).status).toBe('done');
    const parentRows = await db.prisma.episodeEvent.findMany({
      where: { episodeId: parent.id },
      orderBy: { seq: 'asc' },
    });
    const fork = await service.forkEpisode(parent.id, 2);
    expect([fork.parentId, fork.forkTurn, fork.status, fork.turn]).toEqual([parent.id, 2, 'active', 2]);
    const forkRows = await db.prisma.episodeEvent.findMany({ where: { episodeId: fork.id }, orderBy: { seq: 'asc' } });
    const k = parentRows.filter((r) => r.turn <= 2).length;
    expect(forkRows.map((r) => r.payload)).toEqual(parentRows.slice(0, k).map((r) => r.payload));
    expect(await actors(fork.id)).toEqual(['model:local', 'human']);
    // after a restart the fork is rebuilt from its copied actions and must match what is stored
    service.clearLive();
    await service.submitAction(
      fork.id,
      { assistant_message: 'Which colour would you like?', tool_calls: [], answer: null },
      { actor: 'human' },
    );
    await playTableEpisode(service, catalogOf, fork.id, model(), opts);
    expect((await service.getEpisode(fork.id)).status).toBe('done');
    expect((await actors(fork.id)).slice(0, 3)).toEqual(['model:local', 'human', 'human']);
    const family = await service.family(parent.id);
    expect(family.forks.map((f) => f.id)).toEqual([fork.id]);
    expect((await service.family(fork.id)).parent?.id).toBe(parent.id);
  });

  it('refuses a fork turn outside the parent, or at the turn it ended', async () => {
    const parent = await service.startEpisode({ envId: 'PD', d: 0, seed: 4 });
    await playTableEpisode(service, catalogOf, parent.id, { kind: 'agent', agent: 'heuristic' });
    const turns = (await service.getEpisode(parent.id)).turn;
    await expect(service.forkEpisode(parent.id, turns + 1)).rejects.toThrow(
      `fork turn must be a whole number from 0 to ${turns}`,
    );
    await expect(service.forkEpisode(parent.id, turns)).rejects.toThrow(/ended at turn/);
    const atStart = await service.forkEpisode(parent.id, 0);
    expect(atStart.events).toHaveLength(1);
  });
});
