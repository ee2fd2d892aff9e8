import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingMigrations, prepareDatabaseDir, sqliteFile } from './path';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-dbpath-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('database path', () => {
  it('creates a missing directory', () => {
    const url = `file:${path.join(root, 'a/b/dev.db')}`;
    expect(prepareDatabaseDir(url)).toBeNull();
    expect(fs.existsSync(path.join(root, 'a/b'))).toBe(true);
    expect(sqliteFile('file:./prisma/dev.db')).toBe(path.resolve('prisma/dev.db'));
  });

  it('says clearly when the directory cannot be created', () => {
    const blocker = path.join(root, 'not-a-dir');
    fs.writeFileSync(blocker, 'x'); // a file where a directory is needed
    expect(prepareDatabaseDir(`file:${path.join(blocker, 'sub/dev.db')}`)).toMatch(
      /^the database directory .*not-a-dir\/sub does not exist and cannot be created \(ENOTDIR\); set DATABASE_URL=/,
    );
  });

  it('names the migrations a database has not applied, in order', () => {
    const dir = path.join(root, 'migrations');
    for (const m of ['20261130_b', '20261129_a', '20261201_c']) fs.mkdirSync(path.join(dir, m), { recursive: true });
    fs.writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "sqlite"');
    expect(pendingMigrations(['20261129_a'], dir)).toEqual(['20261130_b', '20261201_c']);
    expect(pendingMigrations(['20261129_a', '20261130_b', '20261201_c'], dir)).toEqual([]);
    // the repository's own folder: an empty database lacks every migration
    expect(pendingMigrations([], 'prisma/migrations')).toContain('20261130180000_text_index_off_ack');
  });
});
