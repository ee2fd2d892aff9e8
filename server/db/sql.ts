// The SQL layer: one connection to the store per process besides Prisma's, SQLite
// (better-sqlite3, the same file Prisma uses) or PostgreSQL (a small pg pool), behind one async
// interface so every query is written once. The episode writer (server/episodes/writer.ts) and
// every read of the episode tables (server/episodes/queries/) use it. SQL is written with `?` placeholders (numbered for
// PostgreSQL here); the few dialect differences come from `sqlFor(dialect)` (dialect.ts).
import type Database from 'better-sqlite3';
import pg from 'pg';
import { databaseKind, databaseUrl, pgConnectionConfig, type DatabaseKind } from '@/server/db/url';
import { sqliteFile } from '@/server/db/path';
import { openSqliteConnection } from '@/server/db/sqlite-connection';

export type Sqlite = Database.Database;
export type Dialect = DatabaseKind;

/** One statement of a batch; `expect`: the number of rows it must change, else the batch is rolled back. */
export interface Stmt {
  sql: string;
  args: unknown[];
  expect?: { changes: number; error: () => Error };
}

export interface SqlDb {
  dialect: Dialect;
  /**
   * Runs the statements in ONE transaction, all or (throwing) none. SQLite: one synchronous
   * call, so nothing else runs in between; PostgreSQL: one pooled client, BEGIN … COMMIT.
   */
  batch(stmts: readonly Stmt[]): Promise<void>;
  /** A DateTime column's value as Prisma stores it (SQLite: its text form; PostgreSQL: UTC timestamp text). */
  timestamp(d: Date): string;
  all<T>(sql: string, args?: unknown[]): Promise<T[]>;
  get<T>(sql: string, args?: unknown[]): Promise<T | undefined>;
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, args?: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction (a savepoint when already inside one); rolled back if it throws. */
  transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** SQLite only: the raw connection (the bulk writer's prepared statements). */
  sqlite?: Sqlite;
}

export function openSqlite(url = databaseUrl()): Sqlite {
  const file = sqliteFile(url);
  if (!file) throw new Error(`not a SQLite DATABASE_URL (file:…): "${url.split('@').pop()}"`);
  return openSqliteConnection(file);
}

/** Prisma's DateTime text in SQLite ("2026-11-30T15:04:49.823+00:00"). */
export const sqliteTimestamp = (d: Date) => d.toISOString().replace('Z', '+00:00');

// better-sqlite3 binds no booleans: SQLite stores them as 0/1.
const sqliteArgs = (args: unknown[]) =>
  args.some((a) => typeof a === 'boolean') ? args.map((a) => (typeof a === 'boolean' ? (a ? 1 : 0) : a)) : args;

/**
 * SQLite behind the async interface. Every call completes synchronously (the promise is already
 * settled), so a transaction's statements are not interleaved with another request's I/O.
 */
export function sqliteSqlDb(sqlite: Sqlite): SqlDb {
  let depth = 0;
  // Prepared once per distinct SQL text (imports run the same few statements thousands of times).
  const statements = new Map<string, Database.Statement>();
  const st = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = sqlite.prepare(sql)));
    if (statements.size > 500) statements.delete(statements.keys().next().value!);
    return s;
  };
  const checked = (s: Stmt) => {
    const changes = st(s.sql).run(...sqliteArgs(s.args)).changes;
    if (s.expect && changes !== s.expect.changes) throw s.expect.error();
  };
  const batch = sqlite.transaction((stmts: readonly Stmt[]) => stmts.forEach(checked));
  const db: SqlDb = {
    dialect: 'sqlite',
    sqlite,
    // Inside a transaction a batch is a savepoint of it (better-sqlite3 nests it so): all or none.
    batch: async (stmts) => void (sqlite.inTransaction ? batch(stmts) : batch.immediate(stmts)),
    timestamp: sqliteTimestamp,
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
const numberedParams = (sql: string) => {
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

/**
 * PostgreSQL: queries go to the pool; a transaction holds one client until it ends, and one
 * inside it is a savepoint (`depth`: how deep).
 */
export function pgSqlDb(url: string, max = 4): SqlDb {
  const pool = new pg.Pool({ ...pgConnectionConfig(url), max, types: pgTypes });
  pool.on('error', () => undefined); // an idle connection lost (server restart): the next query opens another
  const over = (on: pg.Pool | pg.PoolClient, depth: number): SqlDb => {
    const query = (sql: string, args: unknown[] = []) => on.query(numberedParams(sql), args);
    const db: SqlDb = {
      dialect: 'postgresql',
      timestamp: (d) => d.toISOString(),
      all: async <T>(sql: string, args?: unknown[]) => (await query(sql, args)).rows as T[],
      get: async <T>(sql: string, args?: unknown[]) => (await query(sql, args)).rows[0] as T | undefined,
      run: async (sql, args) => (await query(sql, args)).rowCount ?? 0,
      batch: (stmts) =>
        db.transaction(async (tx) => {
          for (const s of stmts) {
            const changes = await tx.run(s.sql, s.args);
            if (s.expect && changes !== s.expect.changes) throw s.expect.error();
          }
        }),
      transaction: async (fn) => {
        const client = depth === 0 ? await pool.connect() : (on as pg.PoolClient);
        const sp = `sp${depth}`;
        try {
          await client.query(depth === 0 ? 'BEGIN' : `SAVEPOINT ${sp}`);
          try {
            const out = await fn(over(client, depth + 1));
            await client.query(depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${sp}`);
            return out;
          } catch (e) {
            await client.query(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${sp}`);
            throw e;
          }
        } finally {
          if (depth === 0) (client as pg.PoolClient).release();
        }
      },
      close: async () => (depth === 0 ? pool.end() : undefined),
    };
    return db;
  };
  return over(pool, 0);
}

/** The inspector's store for a DATABASE_URL (file:… → SQLite, postgres://… → PostgreSQL). */
export function openSqlDb(url = databaseUrl()): SqlDb {
  return databaseKind(url) === 'postgresql' ? pgSqlDb(url) : sqliteSqlDb(openSqlite(url));
}

// One connection per store and process, kept on globalThis (dev's hot reload and Next's bundle
// chunks evaluate this module more than once).
const g = globalThis as unknown as { __ecomSqlDbs?: Map<string, SqlDb> };

/** The process's connection to the store at `url` (opened on first use). */
export function sqlDbFor(url: string): SqlDb {
  const open = (g.__ecomSqlDbs ??= new Map());
  let db = open.get(url);
  if (!db) {
    const opened = openSqlDb(url);
    db = { ...opened, close: () => (open.delete(url), opened.close()) };
    open.set(url, db);
  }
  return db;
}

/** The process's connection to DATABASE_URL's store. */
export function sqlDb(): SqlDb {
  return sqlDbFor(databaseUrl());
}
