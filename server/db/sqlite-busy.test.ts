import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSqliteBusy } from './sqlite-busy';

describe('isSqliteBusy', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'busy-'));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('recognises a real lock conflict between two connections, and nothing else', () => {
    const file = path.join(dir, 'db.sqlite');
    const a = new Database(file);
    const b = new Database(file);
    b.pragma('busy_timeout = 0');
    a.exec('CREATE TABLE t (x INTEGER)');
    a.exec('BEGIN IMMEDIATE');
    let busy: unknown = null;
    try {
      b.exec('INSERT INTO t VALUES (1)');
    } catch (e) {
      busy = e;
    }
    a.exec('ROLLBACK');
    let syntax: unknown = null;
    try {
      b.exec('INSERT INTO nowhere VALUES (1)');
    } catch (e) {
      syntax = e;
    }
    a.close();
    b.close();
    expect(isSqliteBusy(busy)).toBe(true);
    expect(isSqliteBusy(syntax)).toBe(false);
    expect(isSqliteBusy(null)).toBe(false);
    expect(isSqliteBusy({ code: 'SQLITE_LOCKED' })).toBe(true);
    expect(isSqliteBusy(new Error('SQLITE_BUSY in a message only'))).toBe(false);
  });

  // Every primary and extended code SQLite documents under BUSY and LOCKED (sqlite3.h).
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_RECOVERY',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_BUSY_TIMEOUT',
    'SQLITE_LOCKED',
    'SQLITE_LOCKED_SHAREDCACHE',
    'SQLITE_LOCKED_VTAB',
  ])('treats %s as busy', (code) => {
    expect(isSqliteBusy({ code })).toBe(true);
    expect(isSqliteBusy(Object.assign(new Error('x'), { code }))).toBe(true);
  });

  // Other failures, including I/O errors whose names mention a lock, and near misses.
  it.each([
    'SQLITE_ERROR',
    'SQLITE_READONLY',
    'SQLITE_READONLY_DBMOVED',
    'SQLITE_IOERR',
    'SQLITE_IOERR_LOCK',
    'SQLITE_IOERR_RDLOCK',
    'SQLITE_IOERR_UNLOCK',
    'SQLITE_PROTOCOL',
    'SQLITE_CANTOPEN',
    'SQLITE_CONSTRAINT_UNIQUE',
    'SQLITE_CORRUPT',
    'SQLITE_BUSYX',
    'SQLITE_LOCKEDOUT',
    'sqlite_busy',
    'XSQLITE_BUSY',
    'SQLITE_BUSY ',
    'P2034',
    '',
  ])('does not treat %j as busy', (code) => {
    expect(isSqliteBusy({ code })).toBe(false);
  });

  it('needs a string code', () => {
    expect(isSqliteBusy(undefined)).toBe(false);
    expect(isSqliteBusy('SQLITE_BUSY')).toBe(false);
    expect(isSqliteBusy({ code: 5 })).toBe(false);
    expect(isSqliteBusy({})).toBe(false);
  });
});
