import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter, createContext } from '@/server/trpc';
import { bodyLimitFor, MAX_TRPC_BODY_BYTES, withCappedBody } from '@/server/lib/body-limit';

export const dynamic = 'force-dynamic';

async function handler(incoming: Request): Promise<Response> {
  const req = await withCappedBody(incoming, bodyLimitFor(new URL(incoming.url).pathname, MAX_TRPC_BODY_BYTES));
  if (req instanceof Response) return req;
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext({ req }),
  });
  // no-transform: Next's gzip skips these small JSON answers (it cost more CPU than the rest of
  // a step's HTTP handling); no-store: an agent's seat view is never cached.
  res.headers.set('cache-control', 'no-store, no-transform');
  return res;
}

export { handler as GET, handler as POST };
