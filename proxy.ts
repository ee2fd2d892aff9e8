// Runs before every route (Next 16 "proxy", formerly middleware). Two gates:
// - local means local (server/lib/local-request.ts): a request whose Host is not this server's
//   (DNS rebinding) or a state-changing request from another site is refused, auth on or off;
// - the inspector's list pages send visitors to /login when auth is on and they are not admin.
//   Handlers check roles again themselves (server/auth); this is only the first gate.
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { localRequestRefusal } from '@/server/lib/local-request';

const ADMIN_PAGES = new Set(['/episodes', '/curriculum']);

export function proxy(req: NextRequest) {
  const refusal = localRequestRefusal(
    {
      method: req.method,
      host: req.headers.get('host'),
      origin: req.headers.get('origin'),
      secFetchSite: req.headers.get('sec-fetch-site'),
    },
    process.env.ECOMRLVE_BIND?.trim() || '127.0.0.1', // set by scripts/app.sh from HOST
    process.env,
  );
  if (refusal)
    return NextResponse.json({ error: { code: refusal.code, message: refusal.message } }, { status: refusal.status });
  const path = req.nextUrl.pathname;
  if (ADMIN_PAGES.has(path) && !isAdmin(authConfig(), credentialsFrom(req.headers))) {
    const url = req.nextUrl.clone();
    url.pathname = '/login';
    url.search = `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

// every route but the build's static files (nothing secret, and the most requested)
export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
