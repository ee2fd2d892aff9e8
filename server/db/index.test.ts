// One Prisma client per process, also in production: `next start` evaluates server/db.ts once
// per bundle chunk that includes it (four in the built app). Each client was a separate SQLite
// connection, so a curriculum batch's transaction on one and a person's step on another
// deadlocked the event loop: the step's connection slept in SQLite's busy handler (5 s) while
// the transaction that held the lock waited for the event loop, and the step failed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const g = globalThis as unknown as { __ecomPrisma?: unknown };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the Prisma client', () => {
  it('is one per process when the module is evaluated twice in production', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-db-'));
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('DATABASE_URL', `file:${path.join(dir, 'one.db')}`);
    delete g.__ecomPrisma;
    const first = (await import('./index')).prisma;
    vi.resetModules();
    const second = (await import('./index')).prisma;
    expect(second).toBe(first);
    expect(g.__ecomPrisma).toBe(first);
    // the SQLite fast paths ask the module for the client's file: every evaluation must know it
    expect((await import('./index')).databaseUrlOf(first as never)).toBe(`file:${path.join(dir, 'one.db')}`);
    await (first as { $disconnect(): Promise<void> }).$disconnect();
    delete g.__ecomPrisma;
    rmSync(dir, { recursive: true, force: true });
  });

  it("sets its SQLite connection's pragmas as every app-server connection's (server/db/sqlite-connection.ts)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-db-'));
    const { createPrismaClient } = await import('./index');
    const { SQLITE_CACHE_KIB } = await import('./sqlite-connection');
    const file = path.join(dir, 'cache.db');
    const client = createPrismaClient(`file:${file}`);
    await new Promise((r) => setTimeout(r, 200)); // room for an eager connection to open the file
    expect(existsSync(file), 'making the client opens no file (next build imports it with no database)').toBe(false);
    const pragma = async (name: string) => {
      const [value] = Object.values(
        (await client.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${name}`))[0],
      );
      return typeof value === 'bigint' ? Number(value) : value;
    };
    // the pragmas are sent when Prisma connects, before its first query
    const wanted = { cache_size: -SQLITE_CACHE_KIB, journal_mode: 'wal', synchronous: 1, busy_timeout: 5000 };
    const seen: Record<string, unknown> = {};
    for (const name of Object.keys(wanted)) seen[name] = await pragma(name);
    expect(seen).toEqual(wanted);
    await client.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });
});
