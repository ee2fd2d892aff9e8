// The one Prisma client of the process. DATABASE_URL picks the database: file:… is SQLite
// through better-sqlite3 (the default, relative to the process cwd, the repo root);
// postgres:// or postgresql:// is PostgreSQL through adapter-pg, with the client generated from
// prisma/pg/schema.prisma (derived from prisma/schema.prisma: the same models, so the same API;
// scripts/pg-schema.test.ts checks they agree). Both are Rust-free clients.
import { PrismaClient } from '@/server/generated/prisma/client';
import { PrismaClient as PgPrismaClient } from '@/server/generated/prisma-pg/client';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { databaseKind, databaseUrl, pgConnectionConfig } from './url';
import { prepareDatabaseDir } from './path';
import { sqliteConnectionPragmas } from './sqlite-connection';

const noop = () => undefined;

export { databaseUrl };

/** Connections per process to PostgreSQL (ECOMRLVE_PG_POOL, default 10). */
function pgPoolSize(): number {
  const n = Number(process.env.ECOMRLVE_PG_POOL ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

// The URL each client was made for: the episode writer's connection (server/db/sql.ts) opens
// the same store. Kept on globalThis like the client itself: a module-level map
// in another bundle chunk did not know the shared client, and those paths fell back to Prisma.
const urls = ((globalThis as unknown as { __ecomPrismaUrls?: WeakMap<PrismaClient, string> }).__ecomPrismaUrls ??=
  new WeakMap<PrismaClient, string>());
export const databaseUrlOf = (client: PrismaClient): string | undefined => urls.get(client);

export function createPrismaClient(url = databaseUrl()): PrismaClient {
  if (databaseKind(url) === 'postgresql') {
    const adapter = new PrismaPg({ ...pgConnectionConfig(url), max: pgPoolSize() });
    // Same models, same generated API: the PostgreSQL client is used through the SQLite client's type.
    const pgClient = new PgPrismaClient({ adapter }) as unknown as PrismaClient;
    urls.set(pgClient, url);
    return pgClient;
  }
  const problem = prepareDatabaseDir(url);
  if (problem) console.error(`[ecomrlve] database unusable: ${problem}`);
  const client = new PrismaClient({ adapter: new PragmaSQLite3({ url }) });
  urls.set(client, url);
  return client;
}

/**
 * The adapter that sends the pragmas of every app-server connection (WAL, synchronous=NORMAL, the
 * bounded page cache: server/db/sqlite-connection.ts) when Prisma connects, on its first query:
 * creating the client opens no file (`next build` imports it with no database).
 * Each is best effort (a read-only file keeps its journal mode).
 */
class PragmaSQLite3 extends PrismaBetterSQLite3 {
  override async connect() {
    const connection = await super.connect();
    for (const pragma of sqliteConnectionPragmas()) await connection.executeScript(`PRAGMA ${pragma}`).catch(noop);
    return connection;
  }
}

// One client per process, kept on globalThis: dev's hot reload re-evaluates this module, and
// `next start` evaluates it once per bundle chunk that includes it. Two clients are two SQLite
// connections: a transaction on one (a curriculum batch) and a write on the other (a step)
// deadlock the event loop for SQLite's busy timeout, and the step fails (server/db/index.test.ts).
const g = globalThis as unknown as { __ecomPrisma?: PrismaClient };
export const prisma: PrismaClient = (g.__ecomPrisma ??= createPrismaClient());

export type { PrismaClient };
