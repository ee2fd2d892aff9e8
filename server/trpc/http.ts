// Serves a tRPC router over HTTP (the route handlers /api/trpc and /play/<id>/trpc): the body is
// read under its cap first (server/lib/body-limit.ts), after the gate proxy.ts leaves to requests
// with a body (server/auth/request-gate.ts), cookies a mutation sets go out with the answer.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { AnyTRPCRouter } from '@trpc/server';
import { bodyRequestGate } from '@/server/auth/request-gate';
import { bodyLimitFor, MAX_TRPC_BODY_BYTES, withCappedBody } from '@/server/lib/body-limit';
import { createContext } from './init';

export async function serveTrpc(
  incoming: Request,
  opts: { endpoint: string; router: AnyTRPCRouter; actor?: string },
): Promise<Response> {
  const refused = bodyRequestGate(incoming); // the proxy's gate, for a request it skipped
  if (refused) return refused;
  const req = await withCappedBody(incoming, bodyLimitFor(new URL(incoming.url).pathname, MAX_TRPC_BODY_BYTES));
  if (req instanceof Response) return req;
  const res = await fetchRequestHandler({
    endpoint: opts.endpoint,
    req,
    router: opts.router,
    createContext: ({ resHeaders }) => createContext({ req, resHeaders, actor: opts.actor }),
  });
  // no-transform: Next's gzip skips these small JSON answers (it cost more CPU than the rest of
  // a step's HTTP handling); no-store: an agent's seat view is never cached.
  res.headers.set('cache-control', 'no-store, no-transform');
  return res;
}
