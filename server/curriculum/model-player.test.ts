// A connected model plays curriculum episodes over HTTP, through the same driver batch runs use:
// here the built-in heuristic agent behind the OpenAI-compatible agent server, so every reward
// must equal the in-process heuristic's on the same (env, d, seed). An endpoint that fails is an
// infrastructure failure: that episode is stored aborted and unscored, and the windows stay put.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicAgent, playEpisode, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createTestDb, expectServiceError, type TestDb } from '@/server/episodes/test/db';
import { createMemoryConnectionStore } from '@/server/models/test/memory-connection-store';
import { startFakeEndpoint } from '@/server/models/test/fake-endpoint';
import { useHeuristicAgentServer } from '@/server/models/test/agent-server-fixture';
import { createCurriculumService, type CurriculumService } from './service';

const agentServer = useHeuristicAgentServer();
const connections = createMemoryConnectionStore({});
let db: TestDb;
let service: CurriculumService;

beforeAll(async () => {
  db = createTestDb();
  const catalog = testCatalog();
  service = createCurriculumService({
    prisma: db.prisma,
    getCatalog: () => catalog,
    defaultCatalogId: catalog.id,
    connections,
  });
  await connections.save({ name: 'served', baseUrl: agentServer.baseUrl, model: 'heuristic', public: true });
  const down = await startFakeEndpoint([{ kind: 'status', status: 503, body: 'down for maintenance' }]);
  agentServer.fakes.push(down);
  await connections.save({ name: 'down', baseUrl: down.baseUrl, model: 'x', maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('a connected model as the curriculum player', { timeout: 180_000 }, () => {
  it('offers connected models beside the built-in agents, private ones to the admin only', async () => {
    expect(await service.players(true)).toEqual({
      agents: ['oracle', 'heuristic', 'random'],
      connections: ['down', 'served'],
    });
    expect((await service.players(false)).connections).toEqual(['served']);
    const run = await service.createRun({ collection: 'C1', seed: 1 });
    const notAdmin = (what: string) => {
      throw new Error(`${what} needs the admin token`);
    };
    await expect(service.startStep(run.id, { episodes: 1, agent: 'connection:down' }, notAdmin)).rejects.toThrow(
      /playing the model connection "down" needs the admin token/,
    );
    await expectServiceError(
      service.startStep(run.id, { episodes: 1, agent: 'connection:nobody' }),
      'BAD_INPUT',
      /unknown player "connection:nobody"; choose one of oracle, heuristic, random, connection:down, connection:served/,
    );
  });

  it('plays over HTTP, scores as the in-process agent would and stores the model as the player of every turn', async () => {
    const run = await service.createRun({ collection: 'C4', seed: 21 });
    const res = await service.stepRun(run.id, { episodes: 8, agent: 'connection:served' });
    expect([res.played, res.run.episodes, res.infra]).toEqual([8, 8, null]);
    const episodes = await db.prisma.episode.findMany({
      where: { curriculumRunId: run.id },
      include: { actions: { select: { actor: true, modelRecord: true } } },
    });
    expect(episodes).toHaveLength(8);
    let rewardSum = 0;
    for (const e of episodes) {
      const local = playEpisode(
        { envId: e.envId as EnvId, d: e.d, seed: e.seed },
        testCatalog(),
        createHeuristicAgent(),
      ).episode.breakdown!;
      expect([e.player, e.status, e.infraError, e.reward]).toEqual(['model:served', 'done', null, local.total]);
      rewardSum += local.total;
      expect(e.actions.length).toBeGreaterThan(0);
      for (const a of e.actions) {
        expect(a.actor).toBe('model:served');
        expect(JSON.parse(a.modelRecord!)).toMatchObject({ actor: 'model:served', reply: expect.any(Object) });
      }
    }
    expect(res.meanReward).toBeCloseTo(rewardSum / 8, 12);
  });

  it('stops at an endpoint that fails: the episode stored infrastructure-aborted, unscored, the windows unmoved', async () => {
    const run = await service.createRun({ collection: 'C4', seed: 22 });
    await service.stepRun(run.id, { episodes: 3, agent: 'heuristic' });
    const before = await service.getRun(run.id);
    const res = await service.stepRun(run.id, { episodes: 5, agent: 'connection:down' });
    expect(res.played).toBe(0);
    expect(res.infra).toMatchObject({ kind: 'http', turn: 1 });
    expect(res.run.state).toEqual(before.state);
    expect(res.run.outcomes).toEqual(before.outcomes); // the aborted episode is in no pass rate or mean
    const aborted = await db.prisma.episode.findMany({ where: { curriculumRunId: run.id, player: 'model:down' } });
    expect(aborted).toHaveLength(1);
    expect([aborted[0].status, aborted[0].terminationReason, aborted[0].reward]).toEqual(['done', 'aborted', null]);
    expect(JSON.parse(aborted[0].infraError!)).toMatchObject({ kind: 'http', turn: 1 });
    expect(service.progress(run.id)).toMatchObject({
      status: 'done',
      played: 0,
      error: expect.stringMatching(/model "down" failed on .* stored as infrastructure-aborted and not scored/),
    });
    // the same task is played again by the next step: a model back up continues the run where it was
    const again = await service.stepRun(run.id, { episodes: 1, agent: 'connection:served' });
    const retried = await db.prisma.episode.findFirstOrThrow({
      where: { curriculumRunId: run.id, player: 'model:served' },
    });
    expect([retried.envId, retried.d, retried.seed]).toEqual([aborted[0].envId, aborted[0].d, aborted[0].seed]);
    expect(again.run.episodes).toBe(before.episodes + 1);
  });
});
