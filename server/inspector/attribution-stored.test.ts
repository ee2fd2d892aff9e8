// Issue 30: failure attribution of STORED episodes played by a model through the real driver
// (a scripted OpenAI-compatible endpoint over HTTP): a batch run whose endpoint times out ends
// infrastructure-aborted and is the infrastructure's; a model whose replies are not an action is
// the agent's (format), at the table of the episode service as in a batch run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { parseConnection, type ConnectionInput } from '@/server/models/connection';
import { inProcessRunPlayer } from '@/server/models/run-player';
import { startStoredRun } from '@/server/models/runs';
import { playTableEpisode } from '@/server/models/test/table-episode';
import { startFakeEndpoint, type FakeEndpoint, type FakeStep } from '@/server/models/test/fake-endpoint';
import { attributeFailure } from './attribution';

let db: TestDb;
let service: EpisodeService;
const endpoints: FakeEndpoint[] = [];
beforeAll(() => {
  db = createTestDb();
  service = createEpisodeService({
    prisma: db.prisma,
    getCatalog: () => testCatalog(),
    defaultCatalogId: testCatalog().id,
  });
}, 120_000);
afterAll(async () => {
  await Promise.all(endpoints.map((e) => e.close()));
  await db?.cleanup();
});

async function modelOn(step: FakeStep, extra: Partial<ConnectionInput> = {}) {
  const fake = await startFakeEndpoint([step]);
  endpoints.push(fake);
  const connection = parseConnection(
    { name: 'fake', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 0, ...extra },
    {},
  );
  return { kind: 'model' as const, connection };
}

/** The attribution of an episode as stored: its row's infrastructure failure, its events and reward. */
async function storedAttribution(id: string) {
  const row = await db.prisma.episode.findUniqueOrThrow({ where: { id }, select: { infraError: true } });
  const view = await service.getEpisode(id);
  return attributeFailure({
    events: view.events,
    breakdown: view.breakdown,
    infraError: row.infraError ? JSON.parse(row.infraError) : null,
  });
}

const deps = () => ({
  prisma: db.prisma,
  runPlayer: inProcessRunPlayer(() => testCatalog()),
  catalogId: testCatalog().id,
});
const oneCell = { envs: ['PD' as const], ds: [2], seeds: [5], concurrency: 1 };

describe('attribution of stored model episodes', { timeout: 120_000 }, () => {
  it('an endpoint that never answers: the batch run’s episode ends aborted, attributed to the infrastructure (timeout)', async () => {
    const player = await modelOn({ kind: 'hang' }, { timeoutMs: 300 });
    const run = await startStoredRun(deps(), player, oneCell);
    await run.finished;
    const [episode] = await db.prisma.episode.findMany({ where: { runId: run.id } });
    expect([episode.status, episode.terminationReason, episode.reward]).toEqual(['done', 'aborted', null]);
    expect(await storedAttribution(episode.id)).toMatchObject({
      party: 'infrastructure',
      reason: 'timeout',
      turns: [1],
    });
  });

  it('an endpoint that answers 503 at the table: the infrastructure (http), the episode left unstepped', async () => {
    const player = await modelOn({ kind: 'status', status: 503, body: 'overloaded' });
    const { id } = await service.startEpisode({ envId: 'CART', d: 1, seed: 2 });
    const turn = await playTableEpisode(service, () => testCatalog(), id, player, { backoffMs: 1 });
    expect(turn.ok).toBe(false);
    expect(await service.getActions(id)).toEqual([]);
    expect(await storedAttribution(id)).toMatchObject({ party: 'infrastructure', reason: 'http', turns: [1] });
  });

  it('a model whose replies are not an action is the agent’s format error, at the table and in a batch run', async () => {
    const babble: FakeStep = { kind: 'reply', content: 'Sure! I would recommend the blue one, it is great.' };
    const { id } = await service.startEpisode({ envId: 'PD', d: 2, seed: 5 });
    await playTableEpisode(service, () => testCatalog(), id, await modelOn(babble, { actionMode: 'json' }));
    const atTable = await storedAttribution(id);
    expect(atTable).toMatchObject({ party: 'agent', reason: 'format' });
    expect(atTable.detail).toMatch(/^unusable action: /);

    const run = await startStoredRun(deps(), await modelOn(babble, { actionMode: 'json' }), oneCell);
    await run.finished;
    const [episode] = await db.prisma.episode.findMany({ where: { runId: run.id } });
    expect(episode.infraError).toBeNull();
    expect(await storedAttribution(episode.id)).toMatchObject({ party: 'agent', reason: 'format' });
  });
});
