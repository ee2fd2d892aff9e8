// The PostgreSQL schema is derived from prisma/schema.prisma, never edited by hand: the models
// are the same text; only the datasource provider and the generated client's folder change.
// scripts/pg-schema.ts writes the result; a test checks the committed file equals it.

export const SQLITE_SCHEMA_PATH = 'prisma/schema.prisma';
export const PG_SCHEMA_PATH = 'prisma/pg/schema.prisma';

const HEADER =
  '// GENERATED from prisma/schema.prisma by `npm run db:pg:sync` (scripts/pg-schema.ts). Do not edit:\n' +
  '// change prisma/schema.prisma, then run the script (it also writes the PostgreSQL migration).\n\n';

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(
    new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g'),
  );
  if (!matches || matches.length !== 1)
    throw new Error(`prisma/schema.prisma: expected exactly one ${what}, found ${matches?.length ?? 0}`);
  return text.replace(pattern, replacement);
}

export function derivePgSchema(sqliteSchema: string): string {
  let s = replaceOnce(sqliteSchema, /provider\s*=\s*"sqlite"/, 'provider = "postgresql"', 'provider = "sqlite"');
  s = replaceOnce(s, /url\s*=\s*"file:[^"]*"[^\n]*/, 'url      = env("DATABASE_URL")', 'file: datasource url');
  s = replaceOnce(
    s,
    /output\s*=\s*"\.\.\/server\/generated\/prisma"/,
    'output     = "../../server/generated/prisma-pg"',
    'client output "../server/generated/prisma"',
  );
  return HEADER + s;
}
