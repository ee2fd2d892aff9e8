// The agent seat for the browser playground: tRPC's seat router under /play/<id>/trpc, where the
// episode's capability cookie (path /play/<id>) comes along. Turns taken here are a person's.
import { seatMount } from '@/server/trpc';
import { serveTrpc } from '@/server/trpc/http';

export const dynamic = 'force-dynamic';

async function handler(req: Request, { params }: { params: Promise<{ episodeId: string }> }) {
  const { episodeId } = await params;
  return serveTrpc(req, { endpoint: `/play/${encodeURIComponent(episodeId)}/trpc`, router: seatMount, actor: 'human' });
}

export { handler as GET, handler as POST };
