import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteConnection } from '@/server/db/sqlite-connection';
import { walCheckpointer } from './wal-checkpoints';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'wal-ckpt-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = openSqliteConnection(file);
  db.pragma('wal_autocheckpoint = 0'); // as a serve:env worker
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)');
  const insert = db.prepare('INSERT INTO t (payload) VALUES (?)');
  const write = (n: number) => db.transaction(() => Array.from({ length: n }, () => insert.run('x'.repeat(1000))))();
  return { file, db, write };
}

describe('walCheckpointer', () => {
  it('copies what another connection committed into the database file, so that writer’s WAL starts over', () => {
    const { file, db, write } = writer();
    const checkpoints = walCheckpointer(file, 60_000);
    try {
      write(500);
      const dbBytes = statSync(file).size;
      expect(checkpoints.run()).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(dbBytes + 400 * 1000); // the rows are in the file now
      // the writer reuses the WAL from its start instead of growing it
      const walBytes = statSync(`${file}-wal`).size;
      write(100);
      expect(statSync(`${file}-wal`).size).toBe(walBytes);
      expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(600);
    } finally {
      checkpoints.stop();
      db.close();
    }
  });
});
