import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '@/server/inspector/db';
import { boundSqliteCache, SQLITE_CACHE_KIB, SQLITE_CACHE_PRAGMA } from './sqlite-cache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const cacheSize = (db: Database.Database) => db.pragma('cache_size', { simple: true });

describe('the bounded SQLite page cache', () => {
  it("replaces better-sqlite3's 16 MB default on a connection", () => {
    const db = new Database(path.join(dir, 'a.db'));
    expect(cacheSize(db)).toBe(-16000); // better-sqlite3's build default: what the bound is for
    expect(boundSqliteCache(db)).toBe(db);
    expect(cacheSize(db)).toBe(-SQLITE_CACHE_KIB);
    db.close();
  });

  it('the SQL form sets the same bound (for connections reached through SQL only)', () => {
    const db = new Database(path.join(dir, 'b.db'));
    db.exec(SQLITE_CACHE_PRAGMA);
    expect(cacheSize(db)).toBe(-SQLITE_CACHE_KIB);
    db.close();
  });

  it("is set on the inspector's connection", () => {
    const db = openSqlite(`file:${path.join(dir, 'c.db')}`);
    expect(cacheSize(db)).toBe(-SQLITE_CACHE_KIB);
    db.close();
  });
});
