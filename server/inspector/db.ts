// The inspector's connection to the store: SQLite (better-sqlite3, the same file Prisma uses)
// or PostgreSQL (a small pg pool), behind one async interface so every query is written once.
// Its filters, full-text search and bulk imports are SQL the ORM cannot express or would make
// slow. SQL is written with `?` placeholders (numbered for PostgreSQL here) and the few
// dialect differences come from `sqlFor(dialect)` (server/inspector/dialect.ts).
import type Database from 'better-sqlite3';
import pg from 'pg';
import { databaseKind, pgConnectionConfig, type DatabaseKind } from '@/server/db-url';
import { sqliteFile } from '@/server/db-path';
import { openSqliteConnection } from '@/server/lib/sqlite-connection';

// Same default as server/db.ts (not imported: that module opens a Prisma client on import).
const DEFAULT_DATABASE_URL = 'file:./prisma/dev.db';

export type Sqlite = Database.Database;
export type Dialect = DatabaseKind;

export interface InspectorDb {
  dialect: Dialect;
  all<T>(sql: string, args?: unknown[]): Promise<T[]>;
  get<T>(sql: string, args?: unknown[]): Promise<T | undefined>;
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, args?: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction (a savepoint when already inside one); rolled back if it throws. */
  transaction<T>(fn: (tx: InspectorDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** SQLite only: the raw connection (the bulk writer's prepared statements). */
  sqlite?: Sqlite;
}

export function openSqlite(url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): Sqlite {
  const file = sqliteFile(url);
  if (!file) throw new Error(`not a SQLite DATABASE_URL (file:…): "${url.split('@').pop()}"`);
  return openSqliteConnection(file);
}

// better-sqlite3 binds no booleans: SQLite stores them as 0/1.
const sqliteArgs = (args: unknown[]) => args.map((a) => (typeof a === 'boolean' ? (a ? 1 : 0) : a));

/**
 * SQLite behind the async interface. Every call completes synchronously (the promise is already
 * settled), so a transaction's statements are not interleaved with another request's I/O.
 */
export function sqliteInspectorDb(sqlite: Sqlite): InspectorDb {
  let depth = 0;
  // Prepared once per distinct SQL text (imports run the same few statements thousands of times).
  const statements = new Map<string, Database.Statement>();
  const st = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = sqlite.prepare(sql)));
    if (statements.size > 500) statements.delete(statements.keys().next().value!);
    return s;
  };
  const db: InspectorDb = {
    dialect: 'sqlite',
    sqlite,
    all: async <T>(sql: string, args: unknown[] = []) => st(sql).all(...sqliteArgs(args)) as T[],
    get: async <T>(sql: string, args: unknown[] = []) => st(sql).get(...sqliteArgs(args)) as T | undefined,
    run: async (sql, args = []) => st(sql).run(...sqliteArgs(args)).changes,
    transaction: async (fn) => {
      const name = `sp${depth}`;
      sqlite.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
      depth++;
      try {
        const out = await fn(db);
        depth--;
        sqlite.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
        return out;
      } catch (e) {
        depth--;
        sqlite.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
        throw e;
      }
    },
    close: async () => void sqlite.close(),
  };
  return db;
}

/** `?` placeholders → `$1, $2, …` (the inspector's SQL has no `?` inside literals). */
export const numberedParams = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

// Rows as the SQLite side gives them: counts and averages as numbers, timestamps as ISO text
// (the columns are UTC "timestamp without time zone"; pg would read them as local time).
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v); // int8 (count), numeric (avg)
    if (oid === 1114) return (v: string) => `${v.replace(' ', 'T')}Z`;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

function pgClientDb(run: (sql: string, args: unknown[]) => Promise<pg.QueryResult>): Omit<InspectorDb, 'transaction'> {
  return {
    dialect: 'postgresql',
    all: async <T>(sql: string, args: unknown[] = []) => (await run(numberedParams(sql), args)).rows as T[],
    get: async <T>(sql: string, args: unknown[] = []) =>
      (await run(numberedParams(sql), args)).rows[0] as T | undefined,
    run: async (sql, args = []) => (await run(numberedParams(sql), args)).rowCount ?? 0,
    close: async () => undefined,
  };
}

/** PostgreSQL: queries go to the pool; a transaction holds one client until it ends. */
export function pgInspectorDb(url: string, max = 4): InspectorDb {
  const pool = new pg.Pool({ ...pgConnectionConfig(url), max, types: pgTypes });
  const inTx = (client: pg.PoolClient, depth: number): InspectorDb => {
    const base = pgClientDb((sql, args) => client.query(sql, args));
    const tx: InspectorDb = {
      ...base,
      transaction: async (fn) => {
        const name = `sp${depth}`;
        await client.query(`SAVEPOINT ${name}`);
        try {
          const out = await fn(inTx(client, depth + 1));
          await client.query(`RELEASE SAVEPOINT ${name}`);
          return out;
        } catch (e) {
          await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw e;
        }
      },
    };
    return tx;
  };
  return {
    ...pgClientDb((sql, args) => pool.query(sql, args)),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        try {
          const out = await fn(inTx(client, 1));
          await client.query('COMMIT');
          return out;
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The inspector's store for a DATABASE_URL (file:… → SQLite, postgres://… → PostgreSQL). */
export function openInspectorDb(url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): InspectorDb {
  return databaseKind(url) === 'postgresql' ? pgInspectorDb(url) : sqliteInspectorDb(openSqlite(url));
}

const g = globalThis as unknown as { __ecomInspectorDb?: InspectorDb };
/** The process-wide connection (opened on first use). */
export function inspectorDb(): InspectorDb {
  return (g.__ecomInspectorDb ??= openInspectorDb());
}
