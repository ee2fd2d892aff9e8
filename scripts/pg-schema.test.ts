// The PostgreSQL schema is derived from the SQLite one (scripts/pg-schema.ts): the committed
// file must be exactly what the script derives now, so a model added to prisma/schema.prisma
// without `npm run db:pg:sync` fails here instead of at run time on PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { derivePgSchema, PG_SCHEMA_PATH, SQLITE_SCHEMA_PATH } from '@/prisma/pg/derive';
import { databaseKind, pgConnectionConfig } from '@/server/db/url';

const models = (schema: string) => schema.slice(schema.indexOf('\nmodel '));

describe('the PostgreSQL schema', () => {
  const sqlite = readFileSync(SQLITE_SCHEMA_PATH, 'utf8');
  const pg = readFileSync(PG_SCHEMA_PATH, 'utf8');

  it('is the one derived from prisma/schema.prisma (run npm run db:pg:sync after a schema change)', () => {
    expect(pg).toBe(derivePgSchema(sqlite));
  });

  it('has the same models, byte for byte, and only the datasource and client folder differ', () => {
    expect(models(pg)).toBe(models(sqlite));
    expect(pg).toContain('provider = "postgresql"');
    expect(pg).toContain('output     = "../../server/generated/prisma-pg"');
    expect(pg).not.toContain('"sqlite"');
  });

  it('refuses a SQLite schema it does not recognise instead of deriving a wrong one', () => {
    expect(() => derivePgSchema(sqlite.replace('provider = "sqlite"', 'provider = "mysql"'))).toThrow(
      /expected exactly one provider = "sqlite", found 0/,
    );
  });

  it('every model of the SQLite schema has its table in the PostgreSQL migrations', () => {
    const tablesIn = (sql: string) => [...sql.matchAll(/CREATE TABLE "(\w+)"/g)].map((m) => m[1]);
    // every PostgreSQL migration in order (later ones add the tables of later models)
    const dir = 'prisma/pg/migrations';
    const pgSql = readdirSync(dir)
      .filter((f) => /^\d+_/.test(f))
      .sort()
      .map((f) => readFileSync(`${dir}/${f}/migration.sql`, 'utf8'))
      .join('\n');
    for (const model of [...sqlite.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]))
      expect(tablesIn(pgSql), model).toContain(model);
  });
});

describe('DATABASE_URL', () => {
  it('file: is SQLite, postgres:// and postgresql:// are PostgreSQL, anything else is refused in one sentence', () => {
    expect(databaseKind('file:./prisma/dev.db')).toBe('sqlite');
    expect(databaseKind('postgres://u:p@db:5432/app')).toBe('postgresql');
    expect(databaseKind('postgresql://db/app')).toBe('postgresql');
    expect(() => databaseKind('mysql://root:secret@db/app')).toThrow(
      'DATABASE_URL must be file:… (SQLite) or postgres://… / postgresql://… (PostgreSQL), got "db/app"',
    );
  });

  it('keeps the password out of the error and decodes the connection fields', () => {
    expect(() => databaseKind('mysql://root:s3cret@db/app')).toThrow(/^(?!.*s3cret)/);
    expect(pgConnectionConfig('postgres://us%40er:p%2Fw@10.0.0.5:6543/my%20db')).toEqual({
      host: '10.0.0.5',
      port: 6543,
      user: 'us@er',
      password: 'p/w',
      database: 'my db',
    });
    expect(pgConnectionConfig('postgresql://db.internal/app')).toMatchObject({ port: 5432, user: 'postgres' });
  });
});
