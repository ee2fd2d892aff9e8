// The one Prisma client of the process (SQLite through better-sqlite3, Rust-free client).
// DATABASE_URL overrides the default file, relative to the process cwd (the repo root).
import { PrismaClient } from '@/server/generated/prisma/client';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { prepareDatabaseDir } from './db-path';

export const DEFAULT_DATABASE_URL = 'file:./prisma/dev.db';

// The URL each client was made for: the episode service's SQLite hot path opens the same file.
const urls = new WeakMap<PrismaClient, string>();
export const databaseUrlOf = (client: PrismaClient): string | undefined => urls.get(client);

export function createPrismaClient(url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): PrismaClient {
  const problem = prepareDatabaseDir(url);
  if (problem) console.error(`[ecomrlve] database unusable: ${problem}`);
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
  urls.set(client, url);
  // WAL: readers do not wait for the writer, and a commit is one append. synchronous=NORMAL
  // keeps every committed step across a process crash (kill -9); only a power loss could drop
  // the last commits. Best effort: a read-only file keeps its journal mode.
  void client
    .$queryRawUnsafe('PRAGMA journal_mode = WAL')
    .then(() => client.$queryRawUnsafe('PRAGMA synchronous = NORMAL'))
    .catch(() => undefined);
  return client;
}

const g = globalThis as unknown as { __ecomPrisma?: PrismaClient };
export const prisma: PrismaClient = g.__ecomPrisma ?? createPrismaClient();
if (process.env.NODE_ENV !== 'production') g.__ecomPrisma = prisma;

export type { PrismaClient };
