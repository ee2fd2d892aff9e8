// Test helper: a tRPC caller over a fresh SQLite database. The routers use the process-wide
// services and Prisma client, which read DATABASE_URL when first imported, so the URL is set
// before importing them (server/episodes/test/app-db.ts). Call inside a test file, at top level.
import { beforeAll } from 'vitest';
import { appDatabaseForFile } from '@/server/episodes/test/app-db';
import type { AuthConfig } from '@/server/auth';

async function makeCaller(opts: { auth?: AuthConfig; headers?: Record<string, string>; resHeaders?: Headers } = {}) {
  const { appRouter, createCallerFactory, createContext } = await import('@/server/trpc');
  const req = opts.headers ? new Request('http://127.0.0.1/api/trpc', { headers: opts.headers }) : undefined;
  return createCallerFactory(appRouter)(
    createContext({ req, auth: opts.auth, resHeaders: opts.resHeaders ?? new Headers() }),
  );
}

/** A caller with auth settings, request headers and a response's headers (cookies set) of its own (role tests). */
export const callerWith = makeCaller;

export type TestCaller = Awaited<ReturnType<typeof makeCaller>>;

export function useTestCaller(): () => TestCaller {
  appDatabaseForFile();
  let caller: TestCaller;
  beforeAll(async () => {
    caller = await makeCaller();
  }, 120_000); // importing the routers and services is slow on a busy machine
  return () => caller;
}
