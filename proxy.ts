// Runs before the inspector's list pages (Next 16 "proxy", formerly middleware): sends visitors
// to /login when auth is on and they are not admin. Handlers check roles again themselves
// (server/auth); this is only the first gate. Oversized bodies are refused earlier, on the raw
// HTTP server, before Next reads anything (server/lib/request-guard.ts, installed by
// instrumentation.ts), so the proxy runs for these two pages only.
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

export const config = { matcher: ['/episodes', '/curriculum'] };
