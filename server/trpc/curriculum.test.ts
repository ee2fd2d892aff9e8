import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';

// The routers use the process-wide services and Prisma client, which read DATABASE_URL
// when first imported: point it at a fresh test database before importing them.
let db: TestDb;
let caller: Awaited<ReturnType<typeof makeCaller>>;

async function makeCaller() {
  const { appRouter, createCallerFactory } = await import('@/server/trpc');
  return createCallerFactory(appRouter)({});
}

beforeAll(async () => {
  db = createTestDb();
  process.env.DATABASE_URL = db.url;
  caller = await makeCaller();
});

afterAll(async () => {
  const { prisma } = await import('@/server/db');
  await prisma.$disconnect();
  await db.cleanup();
});

describe('curriculum router', () => {
  it('creates, steps, lists and gets runs; errors keep their precise message', async () => {
    const meta = await caller.curriculum.meta();
    expect(meta.agents).toContain('oracle');
    expect(meta.collections.map((c) => c.id)).toEqual(['C1', 'C2', 'C4', 'C8']);

    const run = await caller.curriculum.create({ name: 'router', collection: 'C1', seed: 1 });
    expect(run.windows).toEqual([{ envId: 'PD', l: 0, h: 0 }]);
    if (run.playable.length > 0) {
      const res = await caller.curriculum.step({ id: run.id, episodes: 33, agent: 'oracle', storeEpisodes: false });
      expect(res.run.episodes).toBe(33);
      expect(res.run.windows[0]).toEqual({ envId: 'PD', l: 0, h: 1 }); // 32 passes at d = 0
      expect(res.moves).toEqual([{ episode: 32, envId: 'PD', l: 0, h: 1 }]);
    }
    const list = await caller.curriculum.list();
    expect(list[0].id).toBe(run.id);
    expect((await caller.curriculum.get({ id: run.id })).name).toBe('router');

    await expect(caller.curriculum.get({ id: 'missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'no curriculum run with id "missing"',
    });
    await expect(caller.curriculum.create({ collection: 'C5' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.curriculum.step({ id: run.id, episodes: 1, agent: 'nobody' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/unknown agent "nobody"/),
    });
  });
});
