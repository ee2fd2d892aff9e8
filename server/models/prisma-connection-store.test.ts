import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { createPrismaConnectionStore } from './prisma-connection-store';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 60_000);
afterAll(() => db.cleanup());

describe('Prisma connection store', () => {
  it('saves, replaces by name, lists, removes; rows hold no key', async () => {
    const marker = 'sk-MARKER-db-31';
    const env = { MODEL_API_KEY: marker };
    const store = createPrismaConnectionStore(db.prisma, env);
    await store.save({
      name: 'b',
      baseUrl: 'http://127.0.0.1:8011/v1',
      model: 'heuristic',
      apiKeyEnv: 'MODEL_API_KEY',
    });
    await store.save({ name: 'a', baseUrl: 'http://localhost:11434/v1', model: 'qwen', temperature: 0.2 });
    await store.save({ name: 'a', baseUrl: 'http://localhost:11434/v1', model: 'qwen2', temperature: 0.2 });
    expect((await store.list()).map((c) => [c.name, c.model])).toEqual([
      ['a', 'qwen2'],
      ['b', 'heuristic'],
    ]);
    expect(await store.get('a')).toMatchObject({ temperature: 0.2, topP: 1, actionMode: 'tools' });
    await expect(store.save({ name: 'c', baseUrl: 'http://example.com/v1', model: 'x' })).rejects.toThrow(
      /not allowed/,
    );
    const rows = await db.prisma.modelConnection.findMany();
    expect(JSON.stringify(rows)).not.toContain(marker);
    expect(rows.find((r) => r.name === 'b')!.config).toContain('"apiKeyEnv":"MODEL_API_KEY"');
    expect(await store.remove('a')).toBe(true);
    expect(await store.remove('a')).toBe(false);
    expect(await store.get('a')).toBeNull();
  });

  it('re-validates on read against the current allow-list', async () => {
    const wide = createPrismaConnectionStore(db.prisma, { ECOMRLVE_MODEL_HOSTS: 'loopback,gpu-box' });
    await wide.save({ name: 'gpu', baseUrl: 'http://gpu-box:8000/v1', model: 'm' });
    const narrow = createPrismaConnectionStore(db.prisma, {});
    await expect(narrow.get('gpu')).rejects.toThrow(/host "gpu-box" is not allowed/);
  });
});
