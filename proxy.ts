// Runs before every route but the build's static files (Next 16 "proxy", formerly middleware),
// for requests WITHOUT a body: Next reads a body to its end (buffering up to 10 MB) before it
// runs a proxy, so requests that carry one skip it and meet the same gate in the route handler
// that reads the body, before it reads it (server/auth/request-gate.ts). Pages take no body.
// - local means local: a foreign Host (DNS rebinding) or a cross-site write is refused, auth on
//   or off; with auth on, callers other than the admin have write budgets (429 / 413);
// - the inspector's list pages send visitors to /login when auth is on and they are not admin.
//   Handlers check roles again themselves (server/auth, the tRPC procedures); this is only the first gate.
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { refusalResponse, requestGateRefusal } from '@/server/auth/request-gate';

const ADMIN_PAGES = new Set(['/episodes', '/curriculum']);

export function proxy(req: NextRequest) {
  const refused = requestGateRefusal(req);
  if (refused) return refusalResponse(refused);
  const path = req.nextUrl.pathname;
  if (ADMIN_PAGES.has(path) && !isAdmin(authConfig(), credentialsFrom(req.headers))) {
    const url = req.nextUrl.clone();
    url.pathname = '/login';
    url.search = `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

// Written out in full: Next reads this object without running the module.
export const config = {
  matcher: [
    {
      source: '/((?!_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
  ],
};
