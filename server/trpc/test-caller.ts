// Test helper: a tRPC caller over a fresh SQLite database. The routers use the process-wide
// services and Prisma client, which read DATABASE_URL when first imported, so the URL is set
// before importing them. Call inside a test file, at top level.
import { afterAll, beforeAll } from 'vitest';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';

async function makeCaller() {
  const { appRouter, createCallerFactory } = await import('@/server/trpc');
  return createCallerFactory(appRouter)({});
}

export type TestCaller = Awaited<ReturnType<typeof makeCaller>>;

export function useTestCaller(): () => TestCaller {
  let db: TestDb;
  let caller: TestCaller;
  beforeAll(async () => {
    db = createTestDb();
    process.env.DATABASE_URL = db.url;
    caller = await makeCaller();
  });
  afterAll(async () => {
    const { prisma } = await import('@/server/db');
    await prisma.$disconnect();
    await db.cleanup();
  });
  return () => caller;
}
