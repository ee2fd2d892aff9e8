import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleAgent } from '@/server/engine';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import { createCurriculum } from '@/server/engine/curriculum';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { playCurriculumEpisode, type CurriculumStep } from './runner';
import { openCurriculumSqlite } from './sqlite-batch';
import { createCurriculumStore } from './store';

// The synchronous SQLite batch writer against the Prisma path it replaces on SQLite: the same
// rows, the same conflict, and no macrotask inside its transaction.
let db: TestDb;
let sqlite: Database.Database;
const steps: CurriculumStep[] = [];

beforeAll(() => {
  db = createTestDb();
  sqlite = openCurriculumSqlite(db.url)!; // as the app opens it
  const catalog = createSyntheticCatalog({ seed: 1, size: 2000 });
  let state = createCurriculum('C4');
  for (let i = 0; i < 6; i++) {
    const step = playCurriculumEpisode({ state, runSeed: 3, agent: oracleAgent, catalog, at: '2026-12-01T00:00:00Z' });
    steps.push(step);
    state = step.outcome.state;
  }
}, 60_000);

afterAll(async () => {
  sqlite?.close();
  await db?.cleanup();
});

const record = (collection: string) => ({
  name: 'batch',
  collection,
  seed: 3,
  catalogId: 'synthetic-s1-n2000',
  state: createCurriculum('C4'),
});

async function storedRun(runId: string) {
  const episodes = await db.prisma.episode.findMany({
    where: { curriculumRunId: runId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { events: { orderBy: { seq: 'asc' } }, actions: { orderBy: { seq: 'asc' } } },
  });
  return episodes.map(({ id, createdAt, updatedAt, curriculumRunId, events, actions, ...row }) => {
    expect([id, createdAt, updatedAt, curriculumRunId].every(Boolean)).toBe(true);
    return {
      ...row,
      events: events.map(({ id: _e, episodeId: _o, ...e }) => e),
      actions: actions.map(({ id: _a, episodeId: _o, createdAt: _c, ...a }) => a),
    };
  });
}

describe('curriculum batches on SQLite', () => {
  it('writes the same rows as the Prisma path, in play order, and the run state with them', async () => {
    const viaPrisma = createCurriculumStore(db.prisma);
    const viaSqlite = createCurriculumStore(db.prisma, { sqlite });
    const a = await viaPrisma.createRun(record('C4'));
    const b = await viaSqlite.createRun(record('C4'));
    const args = (runId: string, from: number, to: number) => ({
      runId,
      prevEpisodes: from,
      state: steps[to - 1].outcome.state,
      steps: steps.slice(from, to),
      player: 'oracle',
      catalogId: 'synthetic-s1-n2000',
      store: true,
    });
    for (const [store, id] of [
      [viaPrisma, a],
      [viaSqlite, b],
    ] as const) {
      await store.saveSteps(args(id, 0, 4));
      await store.saveSteps(args(id, 4, 6));
    }
    const [rowsA, rowsB] = [await storedRun(a), await storedRun(b)];
    expect(rowsB).toHaveLength(6);
    expect(rowsB).toEqual(rowsA);
    expect(rowsB.map((r) => r.seed)).toEqual(steps.map((s) => s.seed));
    expect(rowsB[0].storedBytes).toBeGreaterThan(1000);
    const [runA, runB] = [await viaPrisma.getRun(a), await viaSqlite.getRun(b)];
    expect(runB!.episodeCount).toBe(6);
    expect(runB!.state).toBe(runA!.state);
    expect(await viaSqlite.outcomes(b)).toEqual(await viaPrisma.outcomes(a));
  });

  it('refuses a batch from a stale episode count (P2025) and writes nothing of it', async () => {
    const store = createCurriculumStore(db.prisma, { sqlite });
    const id = await store.createRun(record('C4'));
    const batch = { runId: id, state: steps[1].outcome.state, steps: steps.slice(0, 2), player: 'oracle' };
    const write = (prevEpisodes: number) =>
      store.saveSteps({ ...batch, prevEpisodes, catalogId: 'synthetic-s1-n2000', store: true });
    await expect(write(5)).rejects.toMatchObject({ code: 'P2025' });
    expect(await db.prisma.episode.count({ where: { curriculumRunId: id } })).toBe(0);
    expect((await store.getRun(id))!.episodeCount).toBe(0);
    await write(0);
    expect(await db.prisma.episode.count({ where: { curriculumRunId: id } })).toBe(2);
  });

  it('commits within the call itself: no macrotask can fall between BEGIN and COMMIT', async () => {
    const store = createCurriculumStore(db.prisma, { sqlite });
    const id = await store.createRun(record('C4'));
    const other = openCurriculumSqlite(db.url)!; // another connection, as another request's
    const count = () =>
      (other.prepare('SELECT count(*) AS n FROM "Episode" WHERE "curriculumRunId" = ?').get(id) as { n: number }).n;
    const saving = store.saveSteps({
      runId: id,
      prevEpisodes: 0,
      state: steps[5].outcome.state,
      steps,
      player: 'oracle',
      catalogId: 'synthetic-s1-n2000',
      store: true,
    });
    // not awaited yet: the whole batch is already committed and visible elsewhere
    expect(count()).toBe(6);
    expect(() => other.prepare('BEGIN IMMEDIATE').run()).not.toThrow(); // and the write lock is free
    other.prepare('ROLLBACK').run();
    await saving;
    other.close();
  });
});
