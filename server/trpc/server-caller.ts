// Server components read their data through this caller: the same procedures, role checks and
// precise errors as the browser's tRPC calls, with the page request's credentials.
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { TRPCError } from '@trpc/server';
import { carriesBody, requestGateRefusal } from '@/server/auth/request-gate';
import { createCallerFactory, createContext } from './init';
import { appRouter } from './routers';

const createCaller = createCallerFactory(appRouter);

export type ServerCaller = ReturnType<typeof createCaller>;

/**
 * One caller per request (React's cache), with that request's headers. A page requested with a
 * body skipped proxy.ts, so its Host is checked here (a page only reads: the host check alone);
 * a foreign Host gets the page's 404: nothing rendered, a 4xx rather than an error page's 500.
 */
export const serverCaller = cache(async (): Promise<ServerCaller> => {
  const h = await headers();
  const refused = carriesBody(h) ? requestGateRefusal({ method: 'GET', headers: h }) : null;
  if (refused) notFound();
  return createCaller(createContext({ headers: h }));
});

/**
 * A page's data: an unknown or malformed id answers the page's 404, a missing role comes back as
 * `denied` (its message) for the page to explain; any other error is the page's error.
 */
export async function pageData<T>(
  load: (caller: ServerCaller) => Promise<T>,
): Promise<{ data: T; denied: null } | { data: null; denied: string }> {
  try {
    return { data: await load(await serverCaller()), denied: null };
  } catch (e) {
    if (!(e instanceof TRPCError)) throw e;
    if (e.code === 'NOT_FOUND' || e.code === 'BAD_REQUEST') notFound();
    if (e.code === 'UNAUTHORIZED') return { data: null, denied: e.message };
    throw e;
  }
}
