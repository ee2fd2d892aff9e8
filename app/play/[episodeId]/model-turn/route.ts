// POST /play/<id>/model-turn {"player": {"connection": name} | {"agent": name}} → one turn of the
// episode by that player, as server-sent events (server/models/turn-stream.ts). Under /play/<id>
// so the episode's capability cookie (path /play/<id>) comes along; the agent seat's rules apply.
import { authConfig, credentialsFrom, requireAdmin, requireAgent } from '@/server/auth';
import { bodyRequestGate } from '@/server/auth/request-gate';
import { getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { episodeService } from '@/server/episodes';
import { HTTP_STATUS, toPublicError } from '@/server/lib/errors';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { playTableTurn } from '@/server/models/table';
import { resolveTablePlayer, turnEventStream } from '@/server/models/turn-stream';

export const dynamic = 'force-dynamic';

const publicError = (e: unknown) => {
  const { code, message } = toPublicError(e);
  return { error: message, code };
};

export async function POST(req: Request, { params }: { params: Promise<{ episodeId: string }> }) {
  const refused = bodyRequestGate(req); // the proxy's gate, for a request it skipped (one with a body)
  if (refused) return refused;
  const { episodeId } = await params;
  const creds = credentialsFrom(req.headers);
  let player;
  try {
    await requireAgent(authConfig(), creds, episodeId, (id, token) => episodeService.checkCapability(id, token));
    const body = await req.json().catch(() => null);
    player = await resolveTablePlayer(createPrismaConnectionStore(prisma), body, (what) =>
      requireAdmin(authConfig(), creds, what),
    );
  } catch (e) {
    const { error, code } = publicError(e);
    return Response.json(
      { error: { code, message: error } },
      { status: HTTP_STATUS[code as keyof typeof HTTP_STATUS] },
    );
  }
  const stream = turnEventStream(
    (onPartial) => playTableTurn(episodeService, getCatalog, episodeId, player, { onPartial }),
    publicError,
  );
  return new Response(stream, {
    // no-transform: compression would hold the events back until the end
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform' },
  });
}
