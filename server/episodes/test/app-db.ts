// For a test file that drives the app's own modules (routes, server actions, page loaders) and
// so the app's one Prisma client (server/db.ts). That client is made from DATABASE_URL when
// server/db.ts is first evaluated: the file's database must be set before then, so call this
// at the top of the file and import the app's modules dynamically after it. This module loads
// nothing that loads server/db/index.ts (test/db.ts does: a test file that imported it statically
// had the app write into prisma/dev.db).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { copyMigratedSqlite } from '@/server/lib/test/migrated-sqlite';

const g = globalThis as unknown as { __ecomPrisma?: unknown };

/** A fresh migrated database as DATABASE_URL for this file; afterwards the app's client is closed and it is removed. */
export function appDatabaseForFile(): { url: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-app-test-'));
  const file = path.join(dir, 'test.db');
  copyMigratedSqlite(file);
  const url = `file:${file}`;
  delete g.__ecomPrisma; // a client left by an earlier file in this process is not this file's
  vi.stubEnv('DATABASE_URL', url);
  beforeAll(async () => {
    const { databaseUrlOf, prisma } = await import('@/server/db');
    // fails when server/db.ts was loaded before this call (a static import of an app module)
    expect(databaseUrlOf(prisma), "the app's Prisma client is not on this file's database").toBe(url);
  });
  afterAll(async () => {
    const { prisma } = await import('@/server/db');
    await prisma.$disconnect();
    delete g.__ecomPrisma;
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });
  return { url };
}
