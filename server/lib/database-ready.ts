// The start-up check of a SQLite database, shared by `next start` (instrumentation.ts) and
// `npm run serve:env`: a missing or empty file (a fresh clone) is migrated with the committed
// migrations; a database the server cannot use is refused with one sentence saying what to do.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pendingMigrations, prepareDatabaseDir, sqliteFile } from '@/server/db/path';
import { openSqliteConnection } from '@/server/db/sqlite-connection';

const MIGRATE = 'run `npx prisma migrate deploy` (npm run app does it)';

export class DatabaseRefused extends Error {}

/** A SQLite file's tables and applied migrations (null: no file). Throws when it cannot be read. */
function stateOf(file: string): { tables: string[]; applied: string[] } | null {
  if (!fs.existsSync(/*turbopackIgnore: true*/ file)) return null;
  const db = openSqliteConnection(file, { readonly: true });
  const names = (sql: string) => (db.prepare(sql).all() as Array<{ name: string }>).map((r) => r.name);
  try {
    const tables = names("SELECT name FROM sqlite_master WHERE type = 'table'");
    const applied = tables.includes('_prisma_migrations')
      ? names('SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL')
      : [];
    return { tables, applied };
  } finally {
    db.close();
  }
}

/**
 * Makes the SQLite database at `url` ready to serve: migrates it when it is missing or has no
 * tables; returns 'migrated', 'ready', or 'not-sqlite' (PostgreSQL is checked elsewhere).
 * Throws DatabaseRefused with one sentence when it cannot be used.
 */
export function readySqliteDatabase(url: string, root = process.cwd()): 'migrated' | 'ready' | 'not-sqlite' {
  const file = sqliteFile(url);
  if (!file) return 'not-sqlite';
  const problem = prepareDatabaseDir(url);
  if (problem) throw new DatabaseRefused(problem);
  let state: ReturnType<typeof stateOf>;
  try {
    state = stateOf(file);
  } catch (e) {
    throw new DatabaseRefused(`the database ${file} cannot be opened (${(e as Error).message})`);
  }
  if (!state?.tables.length) {
    try {
      execFileSync(path.join(/*turbopackIgnore: true*/ root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: `file:${file}`, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
        stdio: 'pipe',
      });
    } catch (e) {
      const why = String((e as { stderr?: Buffer }).stderr ?? (e as Error).message)
        .trim()
        .split('\n')
        .pop();
      throw new DatabaseRefused(`the database ${file} is empty and could not be migrated (${why}): ${MIGRATE}`);
    }
    return 'migrated';
  }
  if (!state.tables.includes('_prisma_migrations')) return 'ready'; // a database made another way
  const pending = pendingMigrations(state.applied, path.join(/*turbopackIgnore: true*/ root, 'prisma/migrations'));
  if (pending.length)
    throw new DatabaseRefused(
      `the database ${file} lacks ${pending.length} migration(s) (${pending.join(', ')}): ${MIGRATE}`,
    );
  return 'ready';
}
