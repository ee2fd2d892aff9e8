// Runs before every page, route and server action (Next 16 "proxy", formerly middleware):
// refuses oversized POST bodies by their declared length (413, nothing read), and sends
// visitors of the inspector's list pages to /login when auth is on and they are not admin.
// Handlers check roles again themselves (server/auth); this is only the first gate.
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';

/** Server actions and tRPC calls: one action is ≤ 64 KB, so 1 MB is generous. */
const MAX_POST_BYTES = 1024 * 1024;

export function proxy(req: NextRequest) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_POST_BYTES) {
      return NextResponse.json(
        {
          error: {
            code: 'TOO_LARGE',
            message: `request body is ${declared} bytes; the limit is ${MAX_POST_BYTES} bytes. Nothing was read or run.`,
          },
        },
        { status: 413 },
      );
    }
  }
  const path = req.nextUrl.pathname;
  if ((path === '/episodes' || path === '/curriculum') && !isAdmin(authConfig(), credentialsFrom(req.headers))) {
    const url = req.nextUrl.clone();
    url.pathname = '/login';
    url.search = `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};
