// Runs before every route (Next 16 "proxy", formerly middleware). Two gates:
// - local means local (server/lib/local-request.ts): a request whose Host is not this server's
//   (DNS rebinding) or a state-changing request from another site is refused, auth on or off;
// - with auth on, callers other than the admin have write budgets (429 / 413, client-budget.ts);
// - the inspector's list pages send visitors to /login when auth is on and they are not admin.
//   Handlers check roles again themselves (server/auth); this is only the first gate.
import { NextResponse, type NextRequest } from 'next/server';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { callerAddress } from '@/server/auth/login-throttle';
import { createClientBudget } from '@/server/lib/client-budget';
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
  const over = overBudget(req);
  if (over)
    return NextResponse.json(
      { error: { code: over.code, message: over.message } },
      { status: over.status, headers: { 'retry-after': String(over.retryAfterS) } },
    );
  const path = req.nextUrl.pathname;
  if (ADMIN_PAGES.has(path) && !isAdmin(authConfig(), credentialsFrom(req.headers))) {
    const url = req.nextUrl.clone();
    url.pathname = '/login';
    url.search = `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

const g = globalThis as unknown as { __ecomClientBudget?: ReturnType<typeof createClientBudget> };

/** An exposed app's write budgets for callers other than the admin (server/lib/client-budget.ts). */
function overBudget(req: NextRequest) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return null;
  const auth = authConfig();
  if (!auth.enabled || isAdmin(auth, credentialsFrom(req.headers))) return null;
  const size = Number(req.headers.get('content-length')) || 64 * 1024; // chunked: counted as an action's limit
  return (g.__ecomClientBudget ??= createClientBudget()).charge(callerAddress(req.headers), size);
}

// every route but the build's static files (nothing secret, and the most requested)
export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
