// npm run db:pg:sync — keeps the PostgreSQL schema (prisma/pg/schema.prisma) derived from the
// SQLite one (prisma/schema.prisma): the same models, only the datasource and the client's output
// folder differ. When the models changed, it writes the derived file and a new migration folder
// under prisma/pg/migrations with the SQL that takes the previous derived schema to the new one
// (`prisma migrate diff` between the two files; no database needed). `--check` only reports.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { derivePgSchema, PG_SCHEMA_PATH, SQLITE_SCHEMA_PATH } from '../prisma/pg/derive';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (p: string) => path.join(ROOT, p);

function migrationSql(from: string | null, to: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-schema-'));
  try {
    writeFileSync(path.join(dir, 'to.prisma'), to);
    const fromArgs = from === null ? ['--from-empty'] : ['--from-schema-datamodel', path.join(dir, 'from.prisma')];
    if (from !== null) writeFileSync(path.join(dir, 'from.prisma'), from);
    return execFileSync(
      at('node_modules/.bin/prisma'),
      ['migrate', 'diff', ...fromArgs, '--to-schema-datamodel', path.join(dir, 'to.prisma'), '--script'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  const check = process.argv.includes('--check');
  const derived = derivePgSchema(readFileSync(at(SQLITE_SCHEMA_PATH), 'utf8'));
  const current = existsSync(at(PG_SCHEMA_PATH)) ? readFileSync(at(PG_SCHEMA_PATH), 'utf8') : null;
  if (current === derived) {
    console.log(`${PG_SCHEMA_PATH} is up to date`);
    return;
  }
  if (check) {
    console.error(`${PG_SCHEMA_PATH} differs from the one derived from ${SQLITE_SCHEMA_PATH}: run npm run db:pg:sync`);
    process.exit(1);
  }
  const sql = migrationSql(current, derived);
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const name =
    process.argv.find((a) => a.startsWith('--name='))?.slice('--name='.length) ?? (current ? 'sync' : 'init');
  const dir = at(`prisma/pg/migrations/${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'migration.sql'),
    `-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.\n${sql}`,
  );
  writeFileSync(at(PG_SCHEMA_PATH), derived);
  console.log(`wrote ${PG_SCHEMA_PATH} and ${path.relative(ROOT, dir)}/migration.sql`);
}

main();
