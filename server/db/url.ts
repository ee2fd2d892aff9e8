// DATABASE_URL schemes: file:… is SQLite (the embedded default), postgres:// or postgresql://
// is PostgreSQL. Shared by prisma.config.ts and server/db.ts.

export type DatabaseKind = 'sqlite' | 'postgresql';

export const DEFAULT_DATABASE_URL = 'file:./prisma/dev.db';
/** The process's store: DATABASE_URL, else the SQLite file under prisma/ (relative to the repo root). */
export const databaseUrl = () => process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;

export function databaseKind(url: string): DatabaseKind {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(
    `DATABASE_URL must be file:… (SQLite) or postgres://… / postgresql://… (PostgreSQL), got "${url.split('@').pop()}"`,
  );
}

/** Discrete pg fields, not a connectionString: adapter-pg's shadow-database code overrides `database`,
 * which pg ignores when a connectionString is present (STACK.md). */
export function pgConnectionConfig(url: string) {
  const u = new URL(url);
  const host = u.searchParams.get('host') ?? decodeURIComponent(u.hostname);
  return {
    host,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username) || 'postgres',
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
  };
}
