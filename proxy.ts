// Runs before the inspector's list pages (Next 16 "proxy", formerly middleware): sends visitors
// to /login when auth is on and they are not admin. Handlers check roles again themselves
// (server/auth, the tRPC procedures); this is only the first gate. It skips requests that carry
// a body: Next reads a body to its end for the proxy (buffering up to 10 MB), and these pages
// take none. Bodies are bounded where they are read (docs/security.md, "Request bodies").
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';

export function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  if (!isAdmin(authConfig(), credentialsFrom(req.headers))) {
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
      source: '/episodes',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/curriculum',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
  ],
};
