// Test helper: a fresh SQLite file per test file, migrated with the committed migrations (a copy
// of one migrated template), and a Prisma client on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { createPrismaClient, type PrismaClient } from '@/server/db';
import { copyMigratedSqlite } from '@/server/lib/test/migrated-sqlite';
import { sqlDbFor, type SqlDb } from '@/server/db/sql';
import { EpisodeServiceError } from '../types';

export interface TestDb {
  url: string;
  prisma: PrismaClient;
  /** the SQL layer's connection to the file (the episode writer's) */
  sql: SqlDb;
  cleanup(): Promise<void>;
}

export function createTestDb(): TestDb {
  const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-test-'));
  const file = path.join(dir, 'test.db');
  copyMigratedSqlite(file);
  const url = `file:${file}`;
  const prisma = createPrismaClient(url);
  const sql = sqlDbFor(url);
  return {
    url,
    prisma,
    sql,
    async cleanup() {
      await sql.close();
      await prisma.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Expects `p` to fail with an EpisodeServiceError of this code (and message). */
export async function expectServiceError(p: Promise<unknown>, code: string, message?: RegExp) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EpisodeServiceError);
  expect((err as EpisodeServiceError).code).toBe(code);
  if (message) expect((err as EpisodeServiceError).message).toMatch(message);
}
