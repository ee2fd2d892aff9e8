// The curriculum played in a worker thread (the app's player): the same episodes, states and
// stored rows as in this thread, progress and cancel, and the choice of the worker's entry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { createCurriculum } from '@/server/engine/curriculum';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS } from '@/server/episodes/service';
import { playableEnvs } from './player';
import { createCurriculumService, type CurriculumService } from './service';
import { builtWorkerFile, workerEntry } from '@/server/lib/worker-thread';
import { workerIdleMs } from '@/server/lib/batch-worker';
import { workerPlayer } from './player';
import { macrotaskProbe } from '@/server/lib/test/macrotask-probe';
import { createMemoryConnectionStore } from '@/server/models/test/memory-connection-store';
import { useHeuristicAgentServer } from '@/server/models/test/agent-server-fixture';

let db: TestDb;
let inThread: CurriculumService;
let inWorker: CurriculumService;
const player = workerPlayer({ idleMs: 1000 });
const agentServer = useHeuristicAgentServer();

beforeAll(() => {
  db = createTestDb();
  const deps = { prisma: db.prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID };
  inThread = createCurriculumService(deps);
  inWorker = createCurriculumService({ ...deps, player });
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

const rewardsOf = async (runId: string) =>
  (
    await db.prisma.episode.findMany({
      where: { curriculumRunId: runId },
      orderBy: { createdAt: 'asc' },
      select: { envId: true, d: true, seed: true, reward: true, eventCount: true, hiddenGoal: true },
    })
  ).sort((a, b) => a.seed - b.seed);

describe('curriculum in a worker thread', () => {
  it('plays the same episodes as this thread: windows, outcomes and stored rows', async () => {
    const a = await inThread.createRun({ collection: 'C2', seed: 42 });
    const b = await inWorker.createRun({ collection: 'C2', seed: 42 });
    const ra = await inThread.stepRun(a.id, { episodes: 60, agent: 'oracle' });
    const rb = await inWorker.stepRun(b.id, { episodes: 60, agent: 'oracle' });
    expect(rb.played).toBe(60);
    expect(rb.run.episodes).toBe(60);
    expect(rb.run.windows).toEqual(ra.run.windows);
    expect(rb.run.outcomes).toEqual(ra.run.outcomes);
    expect(rb.passed).toBe(ra.passed);
    expect(rb.moves).toEqual(ra.moves);
    const [sa, sb] = [await rewardsOf(a.id), await rewardsOf(b.id)];
    expect(sb).toHaveLength(60);
    expect(sb).toEqual(sa);
  }, 120_000);

  it('plays a connected model from the worker thread, over HTTP, as this thread does', async () => {
    const connections = createMemoryConnectionStore({});
    await connections.save({ name: 'served', baseUrl: agentServer.baseUrl, model: 'heuristic' });
    const deps = { prisma: db.prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID, connections };
    const here = createCurriculumService(deps);
    const there = createCurriculumService({ ...deps, player });
    const a = await here.createRun({ collection: 'C1', seed: 8 });
    const b = await there.createRun({ collection: 'C1', seed: 8 });
    const ra = await here.stepRun(a.id, { episodes: 4, agent: 'connection:served' });
    const rb = await there.stepRun(b.id, { episodes: 4, agent: 'connection:served' });
    expect([rb.played, rb.infra, rb.run.state]).toEqual([4, null, ra.run.state]);
    expect(await rewardsOf(b.id)).toEqual(await rewardsOf(a.id));
  }, 120_000);

  it('reports progress while it plays and stops on cancel, keeping what was played', async () => {
    const run = await inWorker.createRun({ collection: 'C1', seed: 3 });
    const job = await inWorker.startStep(run.id, { episodes: 1000, agent: 'oracle', storeEpisodes: false });
    expect(job).toMatchObject({ status: 'running', total: 1000 });
    let p = inWorker.progress(run.id)!;
    for (let i = 0; i < 600 && p.played < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      p = inWorker.progress(run.id)!;
    }
    expect(p.played).toBeGreaterThanOrEqual(50);
    expect(inWorker.cancel(run.id)).toBe(true);
    for (let i = 0; i < 600 && p.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      p = inWorker.progress(run.id)!;
    }
    expect(p).toMatchObject({ status: 'done', cancelled: true });
    expect(p.played).toBeLessThan(1000);
    expect((await inWorker.getRun(run.id)).episodes).toBe(p.played);
  }, 120_000);

  // Batches the worker posts while one is written arrive together; written from one chain of
  // promises they held the server's event loop for seconds (a 1000-episode run: 9 s, requests
  // reset). Each batch's write starts in its own macrotask.
  it('lets other requests run between two batch writes', async () => {
    const state = createCurriculum('C1');
    const job = {
      state,
      runSeed: 5,
      player: { kind: 'agent' as const, agent: 'oracle' as const },
      catalogId: DEFAULT_CATALOG_ID,
      playable: playableEnvs(state),
      caps: { maxEvents: MAX_EPISODE_EVENTS, maxBytes: MAX_EPISODE_BYTES },
    };
    const probe = macrotaskProbe();
    let seen: number[];
    try {
      await player({ ...job, episodes: 40, batchSize: 2 }, probe.write, new AbortController().signal);
    } finally {
      seen = probe.stop();
    }
    expect(seen).toHaveLength(20);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  }, 60_000);

  it("a worker's failure reaches the caller as the step's error", async () => {
    const run = await inWorker.createRun({ collection: 'C1', seed: 4 });
    const broken = createCurriculumService({
      prisma: db.prisma,
      getCatalog,
      defaultCatalogId: DEFAULT_CATALOG_ID,
      player: workerPlayer({ root: path.join(os.tmpdir(), 'no-such-project') }),
    });
    await expect(broken.stepRun(run.id, { episodes: 5, storeEpisodes: false })).rejects.toThrow(/worker-boot\.mjs/);
    expect((await inWorker.getRun(run.id)).episodes).toBe(0);
  });

  it('keeps an idle worker for ECOMRLVE_WORKER_IDLE_S seconds (default 60)', () => {
    expect(workerIdleMs({})).toBe(60_000);
    expect(workerIdleMs({ ECOMRLVE_WORKER_IDLE_S: '5' })).toBe(5000);
    expect(workerIdleMs({ ECOMRLVE_WORKER_IDLE_S: '0' })).toBe(0);
    expect(workerIdleMs({ ECOMRLVE_WORKER_IDLE_S: 'never' })).toBe(60_000);
  });

  it('loads the built bundle in a production server, the TypeScript source otherwise', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-worker-'));
    try {
      const source = path.join(root, 'server/lib/worker-boot.mjs');
      expect(workerEntry('batch', root, { NODE_ENV: 'production' })).toEqual({ file: source, built: false });
      fs.mkdirSync(path.dirname(path.join(root, builtWorkerFile('batch'))), { recursive: true });
      fs.writeFileSync(path.join(root, builtWorkerFile('batch')), '');
      expect(workerEntry('batch', root, { NODE_ENV: 'production' })).toEqual({
        file: path.join(root, builtWorkerFile('batch')),
        built: true,
      });
      expect(workerEntry('batch', root, { NODE_ENV: 'development' })).toEqual({ file: source, built: false });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
