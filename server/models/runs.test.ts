// Batch runs stored as episodes: the per env × d figures equal the in-process agent's on the
// same seeds; infrastructure failures are counted apart and never averaged; two runs compared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicAgent, createRandomAgent, playEpisode, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { createEpisodeService } from '@/server/episodes/service';
import { verifyEpisodes } from '@/scripts/episodes-verify-lib';
import { parseConnection } from './connection';
import { inProcessRunPlayer } from './run-player';
import { runStats, startStoredRun } from './runs';
import { openSqlite, sqliteSqlDb } from '@/server/db/sql';
import { compareRuns } from '@/server/inspector/compare';
import { startFakeEndpoint, type FakeEndpoint } from './test/fake-endpoint';

let db: TestDb;
let fake: FakeEndpoint | undefined;
beforeAll(() => {
  db = createTestDb();
  testCatalog();
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await db?.cleanup();
});

/** Rows by their stored rollout group. */
function groupsOf<T extends { group: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(r.group, [...(out.get(r.group) ?? []), r]);
  return out;
}

const spec = { envs: ['PD', 'CART'] as EnvId[], ds: [1, 4], seeds: [1, 2, 3], concurrency: 2 };
const deps = () => ({
  prisma: db.prisma,
  runPlayer: inProcessRunPlayer(() => testCatalog()),
  catalogId: testCatalog().id,
});

describe('stored batch runs', { timeout: 180_000 }, () => {
  let heuristicRun = '';
  let randomRun = '';

  it('stores one tagged episode per cell and matches the in-process figures per env × d', async () => {
    const run = await startStoredRun(deps(), { kind: 'agent', agent: 'heuristic' }, spec);
    await run.finished;
    heuristicRun = run.id;
    const row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    expect([row.state, row.total, row.done, row.infraFailures, row.player]).toEqual([
      'finished',
      12,
      12,
      0,
      'heuristic',
    ]);
    const stats = await runStats(db.prisma, run.id);
    expect(stats.map((s) => `${s.envId}@${s.d}`)).toEqual(['CART@1', 'CART@4', 'PD@1', 'PD@4']);
    for (const s of stats) {
      const local = spec.seeds.map(
        (seed) =>
          playEpisode({ envId: s.envId as EnvId, d: s.d, seed }, testCatalog(), createHeuristicAgent()).episode
            .breakdown!,
      );
      expect(s.scored).toBe(3);
      expect(s.meanReward).toBeCloseTo(local.reduce((n, b) => n + b.total, 0) / 3, 12);
      expect(s.passRate).toBeCloseTo(local.filter((b) => b.isCorrect).length / 3, 12);
    }
  });

  it('compares two runs: the tasks whose pass/fail flipped, from the stored episodes', async () => {
    const run = await startStoredRun(deps(), { kind: 'agent', agent: 'random' }, spec);
    await run.finished;
    randomRun = run.id;
    const sqlite = openSqlite(db.url);
    const side = (id: string) => ({ by: 'run' as const, value: `batch:${id}` });
    const { flipped: flips } = await compareRuns(sqliteSqlDb(sqlite), side(heuristicRun), side(randomRun));
    sqlite.close();
    const expected = spec.envs.flatMap((envId) =>
      spec.ds.flatMap((d) =>
        spec.seeds.flatMap((seed) => {
          const h = playEpisode({ envId, d, seed }, testCatalog(), createHeuristicAgent()).episode.breakdown!.isCorrect;
          const r = playEpisode({ envId, d, seed }, testCatalog(), createRandomAgent(0)).episode.breakdown!.isCorrect;
          return h !== r ? [`${envId}@${d}#${seed}:${h}->${r}`] : [];
        }),
      ),
    );
    expect(flips.map((f) => `${f.envId}@${f.d}#${f.seed}:${f.aPass}->${f.bPass}`).sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(0);
  });

  it('counts infrastructure failures apart: no reward, no pass rate, the failure marked on each episode', async () => {
    fake = await startFakeEndpoint([{ kind: 'status', status: 500, body: 'boom' }]);
    const connection = parseConnection({ name: 'broken', baseUrl: fake.baseUrl, model: 'x', maxRetries: 0 }, {});
    const run = await startStoredRun(deps(), { kind: 'model', connection }, { ...spec, envs: ['PD'], ds: [2] });
    await run.finished;
    const row = await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } });
    expect([row.done, row.infraFailures]).toEqual([3, 3]);
    expect(await runStats(db.prisma, run.id)).toEqual([
      { envId: 'PD', d: 2, episodes: 3, scored: 0, passRate: null, meanReward: null, infraFailures: 3 },
    ]);
    const episodes = await db.prisma.episode.findMany({
      where: { runId: run.id },
      select: { infraError: true, status: true, terminationReason: true, reward: true },
    });
    for (const e of episodes) {
      expect(JSON.parse(e.infraError!)).toMatchObject({ kind: 'http', turn: 1 });
      // ended as infrastructure-aborted, never left "active" and never scored
      expect([e.status, e.terminationReason, e.reward]).toEqual(['done', 'aborted', null]);
    }
  });

  it('samples groups: G rollouts per seed, each with its own sampling seed, stored with its group and replayable', async () => {
    const grouped = { envs: ['PD', 'STATUS'] as EnvId[], ds: [3], seeds: [1, 2], concurrency: 2, rolloutsPerSeed: 3 };
    const rewardsOf = async (runId: string) =>
      (await db.prisma.episode.findMany({ where: { runId }, select: { rolloutGroup: true, reward: true, id: true } }))
        .map((e) => ({ group: e.rolloutGroup!, reward: e.reward!, id: e.id }))
        .sort((a, b) => a.group.localeCompare(b.group) || a.reward - b.reward);
    const play = async (temperature: number) => {
      const run = await startStoredRun(deps(), { kind: 'agent', agent: 'heuristic' }, { ...grouped, temperature });
      await run.finished;
      expect((await db.prisma.modelRun.findUniqueOrThrow({ where: { id: run.id } })).total).toBe(12);
      return rewardsOf(run.id);
    };
    const sampled = await play(0.8);
    const byGroup = groupsOf(sampled);
    expect([...byGroup.keys()].sort()).toEqual(['PD:3:1', 'PD:3:2', 'STATUS:3:1', 'STATUS:3:2']);
    for (const members of byGroup.values()) expect(members).toHaveLength(3);
    // the temperature makes rollouts of one task differ; at 0 the heuristic repeats itself
    const spread = (rows: typeof sampled) =>
      [...groupsOf(rows).values()].filter((m) => new Set(m.map((e) => e.reward)).size > 1).length;
    expect(spread(sampled)).toBeGreaterThan(0);
    expect(spread(await play(0))).toBe(0);
    // deterministic per rollout: the same run again stores the same rewards
    expect((await play(0.8)).map((e) => [e.group, e.reward])).toEqual(sampled.map((e) => [e.group, e.reward]));
    // what is stored replays: the episode service rebuilds every stored episode from its actions to its events
    const service = createEpisodeService({
      prisma: db.prisma,
      getCatalog: () => testCatalog(),
      defaultCatalogId: testCatalog().id,
    });
    const report = await verifyEpisodes(service);
    expect(report.diverged).toEqual([]);
    expect(report.checked).toBeGreaterThanOrEqual(36);
  });

  it('a model rollout of a group gets the run’s temperature and its connection seed + rollout index', async () => {
    fake = await startFakeEndpoint([{ kind: 'status', status: 500, body: 'boom' }]);
    const connection = parseConnection(
      { name: 'sampled', baseUrl: fake.baseUrl, model: 'x', maxRetries: 0, seed: 10, temperature: 0 },
      {},
    );
    const cell = { envs: ['PD'] as EnvId[], ds: [1], seeds: [4], concurrency: 1 };
    const run = await startStoredRun(
      deps(),
      { kind: 'model', connection },
      { ...cell, rolloutsPerSeed: 3, temperature: 0.7 },
    );
    await run.finished;
    expect(fake.requests.map((r) => [r.body?.temperature, r.body?.seed]).sort()).toEqual([
      [0.7, 10],
      [0.7, 11],
      [0.7, 12],
    ]);
  });
});
