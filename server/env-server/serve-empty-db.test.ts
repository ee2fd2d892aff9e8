// `npm run serve:env` from a fresh clone: no database file yet. The server migrates it on start,
// then one reset and one step are served and stored; a database it cannot use (a migration
// missing after an upgrade) stops it with one sentence instead of failing every request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { EnvHttpClient } from '@/clients/typescript/env-client';
import { createPrismaClient } from '@/server/db';
import { copyMigratedSqlite } from '../lib/test/migrated-sqlite';
import { ADMIN } from './test/helpers';
import { spawnEnvServer } from './test/spawn';

const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-empty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve:env on a database that is not ready', () => {
  it('migrates a missing database on start, then serves and stores a reset and a step', async () => {
    const url = `file:${path.join(dir, 'fresh.db')}`;
    const server = await spawnEnvServer(['--persist', 'on'], { ECOMRLVE_ADMIN_TOKEN: ADMIN, DATABASE_URL: url });
    try {
      const client = new EnvHttpClient(server.url);
      const reset = await client.reset({ env: 'PD', d: 1, seed: 3, run: 'fresh-clone' });
      const step = await client.step(reset.episode_id, 'Hello! What are you looking for?');
      const prisma = createPrismaClient(url);
      try {
        const rows = await prisma.episode.findMany({ where: { player: 'trainer:fresh-clone' } });
        expect(rows.map((r) => [r.envId, r.turn, r.status === 'done'])).toEqual([['PD', 1, step.done]]);
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('refuses a database with a migration missing, in one sentence naming the command', async () => {
    const file = path.join(dir, 'old.db');
    copyMigratedSqlite(file);
    const db = new Database(file);
    db.prepare(
      'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)',
    ).run();
    db.close();
    const start = spawnEnvServer(['--persist', 'on'], { DATABASE_URL: `file:${file}` });
    await expect(start).rejects.toThrow(
      /exited with 2:\nserve:env: the database .* lacks 1 migration\(s\) .*npx prisma migrate deploy/,
    );
  }, 180_000);
});
