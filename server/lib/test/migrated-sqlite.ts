// A migrated SQLite file for tests and benchmarks. `prisma migrate deploy` costs ~3 s of CPU per
// call (a Node process and the schema engine); two dozen test files each paid it. The first call
// migrates one template per set of committed migrations (keyed by their content hash) and every
// call copies it. The template is written under a temp name and renamed, so concurrent test
// workers never copy a half-migrated file.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MIGRATIONS = path.join(ROOT, 'prisma/migrations');

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const entry of readdirSync(MIGRATIONS, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(entry.name);
    if (entry.isDirectory()) hash.update(readFileSync(path.join(MIGRATIONS, entry.name, 'migration.sql')));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Runs the committed migrations on a new SQLite file at `file` (no copy). */
export function migrateSqliteFile(file: string): void {
  execFileSync(path.join(ROOT, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
    stdio: 'pipe',
  });
}

let template: string | null = null;

function migratedTemplate(): string {
  if (template && existsSync(template)) return template;
  const file = path.join(tmpdir(), `ecomrlve-migrated-${migrationsHash()}.db`);
  if (!existsSync(file)) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-template-'));
    const fresh = path.join(dir, 'template.db');
    migrateSqliteFile(fresh);
    renameSync(fresh, file);
    rmSync(dir, { recursive: true, force: true });
  }
  template = file;
  return file;
}

/** Writes a migrated, empty database to `file` (its directory must exist). */
export function copyMigratedSqlite(file: string): void {
  copyFileSync(migratedTemplate(), file);
}
