// The start-up check of `next start` and `serve:env`: an empty SQLite file is migrated, a
// migrated one is left alone, one lacking a migration is refused with the command to run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseRefused, readySqliteDatabase } from './database-ready';
import { copyMigratedSqlite } from './test/migrated-sqlite';

const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-ready-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
};

describe('readySqliteDatabase', () => {
  it('migrates a zero-byte file, then finds it ready', () => {
    const file = path.join(dir, 'empty.db');
    writeFileSync(file, '');
    expect(readySqliteDatabase(`file:${file}`)).toBe('migrated');
    expect(tables(file)).toEqual(expect.arrayContaining(['Episode', '_prisma_migrations']));
    expect(readySqliteDatabase(`file:${file}`)).toBe('ready');
  });

  it('refuses a database that lacks a migration, naming it and the command', () => {
    const file = path.join(dir, 'old.db');
    copyMigratedSqlite(file);
    const db = new Database(file);
    const { name } = db.prepare('SELECT max(migration_name) AS name FROM _prisma_migrations').get() as { name: string };
    db.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(name);
    db.close();
    expect(() => readySqliteDatabase(`file:${file}`)).toThrow(DatabaseRefused);
    expect(() => readySqliteDatabase(`file:${file}`)).toThrow(`lacks 1 migration(s) (${name})`);
    expect(() => readySqliteDatabase(`file:${file}`)).toThrow('npx prisma migrate deploy');
  });

  it('leaves other databases to their own checks', () => {
    expect(readySqliteDatabase('postgresql://localhost/app')).toBe('not-sqlite');
  });
});
