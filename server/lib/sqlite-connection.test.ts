import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCurriculumSqlite } from '@/server/curriculum/sqlite-batch';
import { openSqlite } from '@/server/inspector/db';
import { openSqliteConnection, SQLITE_CACHE_KIB, sqliteConnectionPragmas } from './sqlite-connection';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-connection-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => path.join(dir, name);

/** What a connection ends up with, read back from SQLite. */
const settings = (db: Database.Database) => ({
  cacheSize: db.pragma('cache_size', { simple: true }),
  busyTimeout: db.pragma('busy_timeout', { simple: true }),
  journalMode: db.pragma('journal_mode', { simple: true }),
  synchronous: db.pragma('synchronous', { simple: true }),
  foreignKeys: db.pragma('foreign_keys', { simple: true }),
});
const APP = { cacheSize: -SQLITE_CACHE_KIB, busyTimeout: 5000, journalMode: 'wal', synchronous: 1, foreignKeys: 1 };

describe("an app-server SQLite connection's pragmas", () => {
  it("replace better-sqlite3's defaults: 2 MB page cache instead of 16, WAL, synchronous NORMAL", () => {
    const raw = new Database(file('raw.db'));
    expect(settings(raw)).toEqual({ ...APP, cacheSize: -16000, journalMode: 'delete', synchronous: 2 }); // the driver's
    raw.close();
    const db = openSqliteConnection(file('a.db'));
    expect(settings(db)).toEqual(APP);
    db.close();
  });

  it('take the options: no lock wait, the driver cache (serve:env), FULL', () => {
    const db = openSqliteConnection(file('b.db'), {
      busyTimeoutMs: 0,
      pageCache: 'driver-default',
      synchronous: 'FULL',
    });
    expect(settings(db)).toEqual({ ...APP, busyTimeout: 0, cacheSize: -16000, synchronous: 2 });
    db.close();
  });

  it('read-only: writes refused, the journal mode left as the file has it, the cache bounded', () => {
    new Database(file('c.db')).exec('CREATE TABLE t (x)').close();
    const db = openSqliteConnection(file('c.db'), { readonly: true });
    expect(() => db.exec('INSERT INTO t VALUES (1)')).toThrow(/readonly/);
    expect(settings(db)).toMatchObject({ cacheSize: -SQLITE_CACHE_KIB, journalMode: 'delete' });
    db.close();
    expect(() => openSqliteConnection(file('missing.db'), { readonly: true })).toThrow(/unable to open/);
  });

  it('are set while another process holds the lock, even with no lock wait afterwards (the hot path at start-up)', async () => {
    new Database(file('d.db')).exec('CREATE TABLE t (x)').close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const d = new (require('better-sqlite3'))(process.argv[1]); d.exec('BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
         console.log('locked'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, 300);`,
        file('d.db'),
      ],
      { cwd: path.resolve(__dirname, '../..') },
    );
    await new Promise((r) => holder.stdout.once('data', r));
    const db = openSqliteConnection(file('d.db'), { busyTimeoutMs: 0 }); // waits for the holder's commit
    expect(settings(db)).toEqual({ ...APP, busyTimeout: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    db.close();
    await new Promise((r) => holder.once('close', r));
  });

  it('as SQL give the same connection (the Prisma client sends them so: server/db.test.ts)', () => {
    const db = new Database(file('e.db'));
    for (const pragma of sqliteConnectionPragmas()) db.exec(`PRAGMA ${pragma}`);
    expect(settings(db)).toEqual(APP);
    db.close();
  });

  it("are the inspector's and the curriculum's (the curriculum never waits for a lock)", () => {
    const inspector = openSqlite(`file:${file('f.db')}`);
    expect(settings(inspector)).toEqual(APP);
    inspector.close();
    const curriculum = openCurriculumSqlite(`file:${file('f.db')}`)!;
    expect(settings(curriculum)).toEqual({ ...APP, busyTimeout: 0 });
    curriculum.close();
    expect(openCurriculumSqlite('postgres://u@h/db')).toBeUndefined();
  });
});

// A fourth connection opened with `new Database` would miss the cache bound without any test
// noticing; so the app server's sources open none outside this module. Excepted: serve:env's
// writer and upkeep connections (their own pragmas, the driver's cache: docs/security.md), and
// the WAL checkpoint's thread, plain CommonJS, which gets its pragmas from here in workerData;
// and the start-up check (database-ready.ts), whose read-only connections close before serving.
describe('every app-server SQLite connection', () => {
  const ROOT = path.resolve(__dirname, '../..');
  const OPENERS = new Set([
    'server/lib/sqlite-connection.ts',
    'server/inspector/wal-checkpoint.ts',
    'server/lib/database-ready.ts',
  ]);
  const sources = ['server', 'app', 'components', 'lib'].flatMap((top) =>
    fs.existsSync(path.join(ROOT, top))
      ? (fs.readdirSync(path.join(ROOT, top), { recursive: true }) as string[])
          .map((f) => path.join(top, f).split(path.sep).join('/'))
          .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.includes('/generated/'))
      : [],
  );

  it('is opened by openSqliteConnection', () => {
    expect(sources.length).toBeGreaterThan(100);
    const opening = sources.filter((f) => /new Database\(/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(opening.filter((f) => !OPENERS.has(f))).toEqual([]);
    expect(opening).toContain('server/lib/sqlite-connection.ts'); // the scan sees an opener
  });
});
