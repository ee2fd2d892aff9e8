// Runs before every page, route and server action (Next 16 "proxy", formerly middleware):
// refuses oversized POST bodies by their declared length (413, nothing read), and sends
// visitors of the inspector's list pages to /login when auth is on and they are not admin.
// Handlers check roles again themselves (server/auth); this is only the first gate.
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { bodyLimitFor, CLOSE_CONNECTION, MAX_POST_BYTES } from '@/server/lib/body-limit';

export function proxy(req: NextRequest) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const declared = Number(req.headers.get('content-length'));
    const limit = bodyLimitFor(req.nextUrl.pathname, MAX_POST_BYTES);
    if (Number.isFinite(declared) && declared > limit) {
      return NextResponse.json(
        {
          error: {
            code: 'TOO_LARGE',
            message: `request body is ${declared} bytes; the limit is ${limit} bytes. Nothing was read or run.`,
          },
        },
        { status: 413, headers: CLOSE_CONNECTION },
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

// Not run for /api/trpc and /api/env: those routes check the declared length themselves and
// also cap bodies without one (server/lib/body-limit.ts), and skipping the proxy saves every
// agent step a pass through it.
export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|api/trpc/|api/env/).*)'],
};
