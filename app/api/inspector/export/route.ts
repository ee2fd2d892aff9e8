// GET /api/inspector/export?ids=a,b  or  ?<list filter params>  [&kind=chat]
// → JSONL download (the project's episode format, or chat messages for SFT).
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { inspector } from '@/server/inspector';
import { exportJsonl } from '@/server/inspector/export';
import { listInputFromParams } from '@/server/inspector/filters';
import { episodeIds } from '@/server/episodes/queries/list';

export const dynamic = 'force-dynamic';

export async function GET(req: Request) {
  // a GET carries no body; one that does skipped the proxy's gate (proxy.ts): refused, unread
  if (req.headers.has('transfer-encoding') || Number(req.headers.get('content-length') ?? 0) > 0)
    return Response.json(
      { error: { code: 'BAD_INPUT', message: 'a GET request carries no body: send the filter in the URL' } },
      { status: 400, headers: { connection: 'close' } },
    );
  // episodes with their hidden goals: the inspector's, the admin only when auth is on
  if (!isAdmin(authConfig(), credentialsFrom(req.headers)))
    return Response.json(
      { error: { code: 'UNAUTHORIZED', message: 'exporting episodes needs the admin token (or sign in at /login)' } },
      { status: 401 },
    );
  const params = new URL(req.url).searchParams;
  const kind = params.get('kind') === 'chat' ? 'chat' : 'episodes';
  const { db } = inspector();
  const ids = params.get('ids')
    ? params
        .get('ids')!
        .split(',')
        .filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s))
    : await episodeIds(db, listInputFromParams(params));
  const body = await exportJsonl(db, ids, kind);
  const name = `episodes-${kind === 'chat' ? 'chat-' : ''}${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}.jsonl`;
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'x-episode-count': String(body ? body.trimEnd().split('\n').length : 0),
    },
  });
}
