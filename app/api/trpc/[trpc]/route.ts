import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter, createContext } from '@/server/trpc';
import { bodyLimitFor, MAX_TRPC_BODY_BYTES, withCappedBody } from '@/server/lib/body-limit';

export const dynamic = 'force-dynamic';

async function handler(incoming: Request): Promise<Response> {
  const req = await withCappedBody(incoming, bodyLimitFor(new URL(incoming.url).pathname, MAX_TRPC_BODY_BYTES));
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext({ req }),
  });
}

export { handler as GET, handler as POST };
