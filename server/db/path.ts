// Where the SQLite file lives, and whether it can be used: the directory is created when it
// can be; otherwise one clear message says what is wrong (instead of a 500 on every page).
import fs from 'node:fs';
import path from 'node:path';

/** The file path of a `file:` URL, relative to the process cwd (the repo root). */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const p = url.slice('file:'.length).split('?')[0];
  return path.resolve(p);
}

/** Creates the database directory if needed; returns a problem to report, or null when usable. */
export function prepareDatabaseDir(url: string): string | null {
  const file = sqliteFile(url);
  if (!file) return null;
  const dir = path.dirname(file);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    return `the database directory ${dir} does not exist and cannot be created (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); set DATABASE_URL=file:/a/writable/path.db`;
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    // turbopackIgnore: a run-time path; without it the bundler traces the whole project into the build
    if (fs.existsSync(/*turbopackIgnore: true*/ file)) fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    return `the database ${file} (or its directory) is not writable by this process; fix the permissions or set DATABASE_URL=file:/a/writable/path.db`;
  }
  return null;
}

/**
 * Migrations in `dir` (one folder each, as Prisma writes them) that `applied` does not name:
 * a database left behind by an upgrade fails on every page, so start-up names what is missing.
 */
export function pendingMigrations(applied: Iterable<string>, dir: string): string[] {
  const done = new Set(applied);
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !done.has(e.name))
    .map((e) => e.name)
    .sort();
}
