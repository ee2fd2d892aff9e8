// Prisma's connection behind the materialiser's SQL interface (materialise.ts), for the readers
// that hold a Prisma client rather than the inspector's connection (the episode service, a
// worker's episode log). The SQL is written once with `?` placeholders, numbered for PostgreSQL.
import type { PrismaClient } from '@/server/generated/prisma/client';
import { databaseKind, type DatabaseKind } from '@/server/db-url';
import { numberedParams } from '@/server/inspector/db';
import type { EventStoreDb } from './materialise';

type Raw = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

function over(client: Raw, dialect: DatabaseKind): Omit<EventStoreDb, 'transaction'> {
  const text = (sql: string) => (dialect === 'postgresql' ? numberedParams(sql) : sql);
  return {
    dialect,
    all: async <T>(sql: string, args: unknown[] = []) => client.$queryRawUnsafe<T[]>(text(sql), ...args),
    run: async (sql, args = []) => client.$executeRawUnsafe(text(sql), ...args),
  };
}

/** Inside a transaction: nested transactions run in the same one. */
const inTx = (tx: Raw, dialect: DatabaseKind): EventStoreDb => ({
  ...over(tx, dialect),
  transaction: (fn) => fn(inTx(tx, dialect)),
});

/**
 * The URL a client was created for (server/db.ts's `databaseUrlOf`, read from its global map so
 * that importing this does not open server/db.ts's default client).
 */
const urlOf = (prisma: PrismaClient) =>
  (globalThis as unknown as { __ecomPrismaUrls?: WeakMap<PrismaClient, string> }).__ecomPrismaUrls?.get(prisma);

/** The SQL interface over a Prisma client; the dialect is its URL's (else DATABASE_URL's). */
export function prismaSqlDb(
  prisma: PrismaClient,
  dialect: DatabaseKind = databaseKind(urlOf(prisma) ?? process.env.DATABASE_URL ?? 'file:'),
): EventStoreDb {
  return {
    ...over(prisma, dialect),
    transaction: (fn) => prisma.$transaction((tx) => fn(inTx(tx, dialect)), { timeout: 60_000 }),
  };
}
