// The env server's HTTP routes inside the app: /api/env/reset, /api/env/step, /api/env/state,
// /api/env/schema, /api/env/metadata, /api/env/health (WebSocket: `npm run serve:env` only).
import { bodyRequestGate } from '@/server/auth/request-gate';
import { handleFetchRequest } from '@/server/env-server/app-service';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

async function handler(req: Request, ctx: { params: Promise<{ path: string[] }> }) {
  const refused = bodyRequestGate(req); // the proxy's gate, for a request it skipped (one with a body)
  if (refused) return refused;
  const { path } = await ctx.params;
  return handleFetchRequest(req, '/' + path.join('/'));
}

export { handler as GET, handler as POST };
