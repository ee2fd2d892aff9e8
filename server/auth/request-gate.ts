// The app's first gate (issue 29), one function for the two places a request meets it:
// - proxy.ts, for requests without a body (Next reads a body to its end, up to 10 MB, before it
//   runs a proxy, so the proxy skips requests that carry one: docs/security.md, "Request bodies");
// - the route handlers that read a body (tRPC, /api/env, the model turn), before they read it.
// Both checks read headers only: local means local first (a foreign Host or a cross-site write is
// 403, auth on or off, server/lib/local-request.ts), then an exposed app's write budgets for
// callers other than the admin (429 / 413, server/lib/client-budget.ts); with auth on, an admin
// token presented as a bearer counts as a sign-in attempt (429 past the throttle).
import { authConfig, credentialsFrom, isAdmin, NO_CREDENTIALS } from '@/server/auth';
import { bearerAttempt, callerAddress, loginThrottle, throttledMessage } from '@/server/auth/login-throttle';
import { createClientBudget } from '@/server/lib/client-budget';
import { localRequestRefusal } from '@/server/lib/local-request';

type HeaderReader = { get(name: string): string | null };

export interface GateRefusal {
  status: number;
  code: string;
  message: string;
  retryAfterS?: number;
}

/** Whether a request carries a body (the proxy's matcher skips exactly these). */
export const carriesBody = (headers: HeaderReader) =>
  headers.get('content-length') !== null || headers.get('transfer-encoding') !== null;

const g = globalThis as unknown as { __ecomClientBudget?: ReturnType<typeof createClientBudget> };

/** Why this request is refused before any route reads it, or null. */
export function requestGateRefusal(req: { method: string; headers: HeaderReader }): GateRefusal | null {
  const local = localRequestRefusal(
    {
      method: req.method,
      host: req.headers.get('host'),
      origin: req.headers.get('origin'),
      secFetchSite: req.headers.get('sec-fetch-site'),
    },
    process.env.ECOMRLVE_BIND?.trim() || '127.0.0.1', // set by scripts/app.sh from HOST
    process.env,
  );
  if (local) return local;
  const auth = authConfig();
  if (!auth.enabled) return null;
  const creds = credentialsFrom(req.headers);
  // an admin token guessed through Authorization on any route is a sign-in (login-throttle.ts)
  const wait = bearerAttempt(loginThrottle(), callerAddress(req.headers), creds.bearer, (bearer) =>
    isAdmin(auth, { ...NO_CREDENTIALS, bearer }),
  );
  if (wait > 0) return { status: 429, code: 'RATE_LIMITED', message: throttledMessage(wait), retryAfterS: wait };
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return null;
  if (isAdmin(auth, creds)) return null;
  const size = Number(req.headers.get('content-length')) || 64 * 1024; // chunked: counted as an action's limit
  return (g.__ecomClientBudget ??= createClientBudget()).charge(callerAddress(req.headers), size);
}

export function refusalResponse(r: GateRefusal): Response {
  const headers: Record<string, string> = r.retryAfterS ? { 'retry-after': String(r.retryAfterS) } : {};
  return Response.json({ error: { code: r.code, message: r.message } }, { status: r.status, headers });
}

/**
 * For a route handler that reads a body: the gate's answer for a request the proxy skipped (one
 * with a body), before a byte of it is read; null to go on. A request without a body met the
 * gate in proxy.ts already (its write is counted once).
 */
export function bodyRequestGate(req: Request): Response | null {
  if (!carriesBody(req.headers)) return null;
  const refused = requestGateRefusal(req);
  return refused ? refusalResponse(refused) : null;
}
