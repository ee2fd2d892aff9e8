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
});
