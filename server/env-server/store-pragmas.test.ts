// What serve:env sets on the process's one SQLite connection when it records (server.ts, openStore).
import { afterAll, describe, expect, it, vi } from 'vitest';

const tempDb = await vi.hoisted(async () => {
  const db = (await import('./test/spawn')).migratedTempDatabase();
  process.env.DATABASE_URL = db.url; // the process's Prisma client and connection
  return db;
});

const { buildEnvService } = await import('./server');
const { sqlDbFor } = await import('@/server/db/sql');
const { prisma } = await import('@/server/db');
const { testCatalog } = await import('@/server/engine/testing/catalog-fixture');
const { testConfig } = await import('./test/helpers');

afterAll(async () => {
  await prisma.$disconnect();
  tempDb.remove();
});

const pragma = (name: string) => sqlDbFor(tempDb.url).sqlite!.pragma(name, { simple: true });

describe('serve:env’s store connection', () => {
  it('keeps SQLite’s automatic WAL checkpoint unless serve:env’s primary checkpoints the file', async () => {
    const single = buildEnvService(testConfig({ persist: true }), testCatalog());
    expect(pragma('wal_autocheckpoint')).toBe(1000);
    // a commit meeting another worker's write lock is retried on the event loop (GroupCommit)
    expect(pragma('busy_timeout')).toBe(0);
    await single.closeStore();

    const worker = buildEnvService(testConfig({ persist: true }), testCatalog(), { checkpointedByPrimary: true });
    expect(pragma('wal_autocheckpoint')).toBe(0);
    await worker.closeStore();
  });
});
