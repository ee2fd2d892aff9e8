import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDatabaseDir, sqliteFile } from './db-path';

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
});
