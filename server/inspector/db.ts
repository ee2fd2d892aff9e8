// The inspector reads and writes SQLite directly (better-sqlite3): its filters, FTS5 search and
// bulk imports are SQL the ORM cannot express or would make slow. Same file as Prisma uses.
import Database from 'better-sqlite3';
import path from 'node:path';

// Same default as server/db.ts (not imported: that module opens a Prisma client on import).
const DEFAULT_DATABASE_URL = 'file:./prisma/dev.db';

export type Sqlite = Database.Database;

export function sqliteFileOf(url: string): string {
  if (!url.startsWith('file:')) throw new Error(`the inspector needs a SQLite DATABASE_URL (file:…), got "${url}"`);
  return path.resolve(url.slice('file:'.length));
}

export function openSqlite(url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): Sqlite {
  const db = new Database(sqliteFileOf(url));
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

const g = globalThis as unknown as { __ecomInspectorDb?: Sqlite };
/** The process-wide connection (opened on first use). */
export function inspectorDb(): Sqlite {
  return (g.__ecomInspectorDb ??= openSqlite());
}
