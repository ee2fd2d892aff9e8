import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import { createCurriculum, recordResult } from '@/server/engine/curriculum';
import { createEpisodeService, sqlDbOf } from '@/server/episodes/service';
import { readRunGroups } from '@/server/episodes/run-rollouts';
import { createTestDb, expectServiceError, type TestDb } from '@/server/episodes/test/db';
import { playableEnvs, playCurriculumTask } from './player';
import { createCurriculumService, type CurriculumService } from './service';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS } from '@/server/episodes/service';

// A small catalog keeps the test fast; the service does not care about its size.
const CATALOG_ID = 'synthetic-s1-n3000';
let catalog: Catalog;
let db: TestDb;
let service: CurriculumService;
const deps = () => ({
  prisma: db.prisma,
  getCatalog: (id?: string) => {
    if (id !== undefined && id !== CATALOG_ID) throw new Error(`unknown catalog ${id}`);
    return catalog;
  },
  defaultCatalogId: CATALOG_ID,
  now: () => new Date('2026-11-30T12:00:00.000Z'),
});

beforeAll(() => {
  catalog = createSyntheticCatalog({ seed: 1, size: 3000 });
  db = createTestDb();
  service = createCurriculumService(deps());
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

describe('curriculum service', () => {
  it('creates a run at [0, 0] for every env of the collection', async () => {
    const run = await service.createRun({ name: 'fresh', collection: 'C4', seed: 5 });
    expect(run).toMatchObject({ name: 'fresh', collection: 'C4', seed: 5, episodes: 0, catalogId: CATALOG_ID });
    expect(run.windows).toEqual([
      { envId: 'PD', l: 0, h: 0 },
      { envId: 'SUB', l: 0, h: 0 },
      { envId: 'CART', l: 0, h: 0 },
      { envId: 'RETURN', l: 0, h: 0 },
    ]);
    expect(run.timeline).toEqual([{ episode: 0, PD: 0, SUB: 0, CART: 0, RETURN: 0 }]);
    expect(run.playable).toContain('CART');
    expect((await service.listRuns()).map((r) => r.id)).toContain(run.id);
    // the built-in agents the playground and batch runs offer, oracle first (no unexplained extras)
    expect((await service.players(true)).agents).toEqual(['oracle', 'heuristic', 'random']);
  });

  it('plays episodes, saves the state after each, and reloads it', async () => {
    const run = await service.createRun({ name: 'climb', collection: 'C8', seed: 42 });
    const seen: number[] = [];
    const res = await service.stepRun(run.id, { episodes: 40, agent: 'oracle' }, (p) => seen.push(p.state.episodes));
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(res.played).toBe(40);
    expect(res.passed).toBe(40); // the oracle solves everything
    expect(res.skippedEnvs).toEqual(run.state.envs.map((e) => e.envId).filter((e) => !run.playable.includes(e)));
    expect(res.run.episodes).toBe(40);
    const playedEnvs = res.run.envs.filter((e) => e.played > 0).map((e) => e.envId);
    expect(playedEnvs.every((e) => run.playable.includes(e))).toBe(true);
    expect(res.run.envs.reduce((n, e) => n + e.played, 0)).toBe(40);

    // a second service on the same database (as after a restart) reads the same state
    const reloaded = await createCurriculumService(deps()).getRun(run.id);
    expect(reloaded.state).toEqual(res.run.state);
    const row = await db.prisma.curriculumRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.episodeCount).toBe(40);
    expect(JSON.parse(row.state)).toEqual(res.run.state);

    // every episode is stored, linked to the run, and readable and replayable by the episode service
    expect(reloaded.storedEpisodes).toBe(40);
    expect(reloaded.recentEpisodes).toHaveLength(10);
    expect(reloaded.recentEpisodes.every((e) => e.player === 'oracle' && e.status === 'done' && e.isCorrect)).toBe(
      true,
    );
    const episodes = createEpisodeService(deps());
    const latest = reloaded.recentEpisodes[0];
    const view = await episodes.getEpisode(latest.id);
    expect(view.events.at(-1)).toMatchObject({ kind: 'reward' });
    await expect(episodes.getWorld(latest.id)).resolves.toBeTruthy(); // replay matched the stored events
    const listed = await episodes.listEpisodes({ limit: 5 });
    expect(listed.items.map((e) => e.id)).toContain(latest.id);
  });

  it('continues deterministically: two chunks equal one uninterrupted in-memory run', async () => {
    const run = await service.createRun({ name: 'chunks', collection: 'C4', seed: 7 });
    await service.stepRun(run.id, { episodes: 15, storeEpisodes: false });
    const after = await service.stepRun(run.id, { episodes: 25, storeEpisodes: false });
    expect(after.run.storedEpisodes).toBe(0);

    let state = createCurriculum('C4');
    const playable = playableEnvs(state);
    for (let i = 0; i < 40; i++) {
      const [step] = (await playCurriculumTask({
        state,
        runSeed: 7,
        player: { kind: 'agent', agent: 'oracle' },
        catalog,
        caps: { maxEvents: MAX_EPISODE_EVENTS, maxBytes: MAX_EPISODE_BYTES },
        playable,
        at: '2026-11-30T12:00:00.000Z',
      }))!;
      state = step.outcome!.state;
    }
    expect(after.run.state).toEqual(state);
  });

  it('samples groups: G rollouts of one task, stored with their group and train step, each counted', async () => {
    const run = await service.createRun({ name: 'groups', collection: 'C4', seed: 11 });
    const sampled = { agent: 'heuristic', rolloutsPerTask: 4, temperature: 1 };
    const first = await service.stepRun(run.id, { episodes: 10, ...sampled });
    expect(first.played).toBe(12); // whole groups: 3 tasks × 4
    const second = await service.stepRun(run.id, { episodes: 8, ...sampled });
    // every rollout is one result of the curriculum
    expect(second.run.state.episodes).toBe(20);
    expect(second.run.envs.reduce((n, e) => n + e.played, 0)).toBe(20);

    const rows = await db.prisma.episode.findMany({
      where: { curriculumRunId: run.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const groups = new Map<string, typeof rows>();
    for (const r of rows) groups.set(r.rolloutGroup!, [...(groups.get(r.rolloutGroup!) ?? []), r]);
    expect([...groups.keys()]).toEqual(['task-0', 'task-4', 'task-8', 'task-12', 'task-16']);
    for (const [name, members] of groups) {
      expect(members).toHaveLength(4);
      expect(new Set(members.map((m) => `${m.envId}|${m.d}|${m.seed}`)).size).toBe(1);
      // the train step: the run's episode count when the step began
      expect(new Set(members.map((m) => m.trainStep))).toEqual(new Set([Number(name.slice(5)) < 12 ? 0 : 12]));
    }
    // the temperature makes a group's rollouts differ: some group carries a learning signal
    const varies = [...groups.values()].filter((m) => new Set(m.map((r) => r.reward)).size > 1);
    expect(varies.length).toBeGreaterThan(0);

    // the run view's groups are these
    const view = await readRunGroups(sqlDbOf(db.prisma), `curriculum:${run.id}`);
    expect(view.map((g) => [g.group, g.size, g.zeroVariance]).sort()).toEqual(
      [...groups].map(([name, m]) => [name, 4, new Set(m.map((r) => r.reward)).size === 1]).sort(),
    );

    // two steps equal one uninterrupted in-memory run of five groups
    let state = createCurriculum('C4');
    for (let i = 0; i < 5; i++) {
      const steps = (await playCurriculumTask({
        state,
        runSeed: 11,
        player: { kind: 'agent', agent: 'heuristic' },
        catalog,
        caps: { maxEvents: MAX_EPISODE_EVENTS, maxBytes: MAX_EPISODE_BYTES },
        rollouts: 4,
        temperature: 1,
        playable: playableEnvs(state),
        at: '2026-11-30T12:00:00.000Z',
      }))!;
      expect(steps).toHaveLength(4);
      state = steps.at(-1)!.outcome!.state;
    }
    expect(second.run.state).toEqual(state);
  });

  it('moves h after 32 passes at h, with the time of the move', async () => {
    // Seed a run whose playable envs are one step from a check, then play until it moves.
    const run = await service.createRun({ name: 'move', collection: 'C8', seed: 3 });
    let state = run.state;
    for (const envId of run.playable) {
      for (let i = 0; i < 31; i++) state = recordResult(state, { envId, d: 0, passed: true }).state;
    }
    await db.prisma.curriculumRun.update({
      where: { id: run.id },
      data: { state: JSON.stringify(state), episodeCount: state.episodes },
    });
    const res = await service.stepRun(run.id, { episodes: 1, storeEpisodes: false });
    expect(res.moves).toHaveLength(1);
    const moved = res.run.state.envs.find((e) => e.envId === res.moves[0].envId)!;
    expect(moved).toMatchObject({ l: 0, h: 1, counted: 0, passed: 0 });
    expect(moved.history.at(-1)).toEqual({ episode: state.episodes + 1, l: 0, h: 1, at: '2026-11-30T12:00:00.000Z' });
  });

  it('rejects bad input with precise errors', async () => {
    await expectServiceError(
      service.createRun({ collection: 'C3' }),
      'BAD_INPUT',
      /unknown collection "C3"; choose one of C1, C2, C4, ALL/,
    );
    await expectServiceError(service.getRun('missing'), 'NOT_FOUND', /no curriculum run with id "missing"/);
    const run = await service.createRun({ collection: 'C2' });
    expect(run.name).toMatch(/^C2 · 2026-11-30 12:00$/);
    await expectServiceError(service.stepRun(run.id, { episodes: 0 }), 'BAD_INPUT', /episodes/);
    for (const g of [0, 17, 1.5])
      await expectServiceError(
        service.stepRun(run.id, { episodes: 4, rolloutsPerTask: g }),
        'BAD_INPUT',
        /rolloutsPerTask: a whole number from 1 to 16/,
      );
    await expectServiceError(
      service.startStep(run.id, { episodes: 4, temperature: 2.5 }),
      'BAD_INPUT',
      /temperature: a number from 0 to 2/,
    );
    await expectServiceError(
      service.stepRun(run.id, { episodes: 1, agent: 'nobody' }),
      'BAD_INPUT',
      /unknown player "nobody"; choose one of oracle, heuristic, random/,
    );
    if (run.playable.length === 0) {
      await expectServiceError(service.stepRun(run.id, { episodes: 1 }), 'BAD_INPUT', /can be played yet/);
    }
  });

  it('refuses to advance a run another writer has advanced', async () => {
    const run = await service.createRun({ collection: 'C8', seed: 9 });
    const other = createCurriculumService(deps());
    // The other writer bumps the stored count between our read and our write.
    const real = db.prisma.curriculumRun.findUnique.bind(db.prisma.curriculumRun);
    const spy = Object.assign(db.prisma.curriculumRun, {
      findUnique: (async (args: Parameters<typeof real>[0]) => {
        const row = await real(args);
        (spy as { findUnique: unknown }).findUnique = real;
        await other.stepRun(run.id, { episodes: 1, storeEpisodes: false });
        return row;
      }) as unknown as typeof real,
    });
    await expectServiceError(
      service.stepRun(run.id, { episodes: 1, storeEpisodes: false }),
      'CONFLICT',
      /another writer/,
    );
    expect((await service.getRun(run.id)).episodes).toBe(1);
  });

  it('a long step lets other requests run between episodes, reports progress and can be cancelled', async () => {
    const run = await service.createRun({ collection: 'C1', seed: 11 });
    const step = service.stepRun(run.id, { episodes: 1000, agent: 'oracle', storeEpisodes: false });
    await new Promise((r) => setTimeout(r, 100));
    // another request is served while the step is still running (blocked, it would wait for the end)
    const other = await service.listRuns();
    expect(other.map((r) => r.id)).toContain(run.id);
    // one step at a time per run, whichever way it was started
    await expectServiceError(service.stepRun(run.id, { episodes: 1 }), 'CONFLICT', /already playing/);
    const progress = service.progress(run.id);
    expect(progress).toMatchObject({ total: 1000, cancelled: false });
    expect(progress!.played).toBeLessThan(1000);
    expect(service.cancel(run.id)).toBe(true);
    const res = await step;
    expect(res.cancelled).toBe(true);
    expect(res.played).toBeLessThan(1000);
    expect(res.run.episodes).toBe(res.played); // what was played is kept
    expect(service.progress(run.id)).toMatchObject({ status: 'done', cancelled: true, played: res.played });
    expect(service.cancel(run.id)).toBe(false);
  });

  it('starts a step in the background: the request returns at once, progress only grows, cancel stops it', async () => {
    const run = await service.createRun({ collection: 'C2', seed: 5 });
    expect(service.progress(run.id)).toBeNull();
    const job = await service.startStep(run.id, { episodes: 1000, agent: 'oracle' });
    expect(job).toMatchObject({ status: 'running', played: 0, total: 1000 });
    await expectServiceError(service.startStep(run.id, { episodes: 1 }), 'CONFLICT', /already playing/);
    const seen: number[] = [];
    while (seen.length < 200 && (seen.at(-1) ?? 0) < 30) {
      await new Promise((r) => setTimeout(r, 20));
      seen.push(service.progress(run.id)!.played);
    }
    expect(seen.at(-1)).toBeGreaterThanOrEqual(30);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1])).toBe(true);
    expect(service.cancel(run.id)).toBe(true);
    let p = service.progress(run.id)!;
    for (let i = 0; i < 500 && p.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      p = service.progress(run.id)!;
    }
    expect(p).toMatchObject({ status: 'done', cancelled: true });
    expect(p.played).toBeLessThan(1000);
    expect(p.passed).toBeGreaterThan(0);
    expect(p.meanReward).not.toBeNull();
    const after = await service.getRun(run.id);
    expect(after.episodes).toBe(p.played); // what was played before the cancel is kept
    expect(after.outcomes.at(-1)?.episode).toBe(p.played);
    // a finished job makes room for the next start; bad input is refused before anything starts
    await expectServiceError(service.startStep(run.id, { episodes: 1, agent: 'nobody' }), 'BAD_INPUT', /player/);
    await expectServiceError(service.startStep('nope', { episodes: 1 }), 'NOT_FOUND', /no curriculum run/);
  });
});

describe('a step that fails inside', () => {
  it('shows the page a public error: an internal failure only by its log id', async () => {
    const failing = createCurriculumService({
      ...deps(),
      player: async () => {
        throw new Error("Cannot read properties of null (reading 'player')");
      },
    });
    const run = await failing.createRun({ name: 'broken player', collection: 'C4', seed: 9 });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(failing.stepRun(run.id, { episodes: 3, agent: 'oracle' })).rejects.toThrow(/reading 'player'/);
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    const job = failing.progress(run.id)!;
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^internal error \(id [0-9a-f]{8}\); the details are in the server log$/);
  });
});
