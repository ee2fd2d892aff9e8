// GET /api/inspector/bundle?ids=a,b  or  ?<list filter params, e.g. run=NAME>  [&withGoal=1]
// → one self-contained HTML file replaying the episodes (server/inspector/bundle.ts). The
// inspector's, so the admin's only when auth is on; the goal is left out unless withGoal=1.
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { inspector } from '@/server/inspector';
import { bundlePayload, MAX_BUNDLE_EPISODES } from '@/server/inspector/bundle';
import { bundleHtml } from '@/server/inspector/bundle-html';
import { listInputFromParams } from '@/server/inspector/filters';
import { episodeIds } from '@/server/episodes/queries/list';

export const dynamic = 'force-dynamic';

const fail = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

export async function GET(req: Request) {
  if (!isAdmin(authConfig(), credentialsFrom(req.headers)))
    return fail(401, 'UNAUTHORIZED', 'a demo bundle needs the admin token (or sign in at /login)');
  const params = new URL(req.url).searchParams;
  const withGoal = params.get('withGoal') === '1';
  const { db, data } = inspector();
  const ids = params.get('ids')
    ? params
        .get('ids')!
        .split(',')
        .filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s))
    : await episodeIds(db, listInputFromParams(params), MAX_BUNDLE_EPISODES + 1);
  if (ids.length === 0) return fail(404, 'NOT_FOUND', 'no episodes matched: nothing to bundle');
  if (ids.length > MAX_BUNDLE_EPISODES)
    return fail(
      400,
      'BAD_REQUEST',
      `a demo bundle holds at most ${MAX_BUNDLE_EPISODES} episodes; narrow the filter (more than that matched)`,
    );
  const payload = await bundlePayload(db, data, ids, { withGoal, title: params.get('title') ?? undefined });
  if (payload.episodes.length === 0) return fail(404, 'NOT_FOUND', 'no such episode');
  const name = `demo-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}.html`;
  return new Response(bundleHtml(payload), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'x-episode-count': String(payload.episodes.length),
    },
  });
}
