// Who may reach what. Three roles:
//   public     the shop's description (envs, tools, difficulty preview, catalogs) and starting an
//              episode with default axes
//   agent      one episode's agent seat: its capability token (issued when the episode starts)
//   admin      the inspector (hidden goal, world, evidence, lists) and admin operations
//              (axis overrides, curriculum, imports): the admin token
// Auth is off for a local tool (bound to 127.0.0.1, the default): everyone is admin. It is on
// when ECOMRLVE_AUTH=on, or when ECOMRLVE_BIND names a non-loopback address (scripts/app.sh
// sets it from HOST) unless ECOMRLVE_AUTH=off says otherwise.
// Node-only module without Next imports, so route handlers, tRPC, server actions, the proxy and
// a future env server share it.
import { createHash } from 'node:crypto';
import { AppError } from '@/server/lib/errors';
import { isLoopbackBind } from '@/server/lib/local-request';
import { bearerToken, sameSecret } from './secrets';

export type Role = 'public' | 'agent' | 'admin';

export interface AuthConfig {
  enabled: boolean;
  /** null when auth is on but no admin token was configured: nobody is admin */
  adminToken: string | null;
}

export const ADMIN_COOKIE = 'ecomrlve_admin';
export const EPISODE_TOKEN_HEADER = 'x-episode-token';
/** The browser keeps an episode's capability in this cookie, scoped to the episode's play path. */
export const episodeCookieName = (episodeId: string) => `ecomrlve_ep_${episodeId}`;
export const episodeCookiePath = (episodeId: string) => `/play/${episodeId}`;

export function authConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  const flag = (env.ECOMRLVE_AUTH ?? '').toLowerCase();
  const bind = env.ECOMRLVE_BIND?.trim();
  const exposed = bind !== undefined && bind !== '' && !isLoopbackBind(bind);
  const enabled = flag === 'on' || (flag !== 'off' && exposed);
  const token = env.ECOMRLVE_ADMIN_TOKEN?.trim();
  return { enabled, adminToken: token ? token : null };
}

/** What a request presented: a bearer token, an episode token header, and cookies. */
export interface Credentials {
  bearer: string | null;
  episodeToken: string | null;
  cookies: Record<string, string>;
}

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    try {
      out[name] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      // a malformed cookie value is ignored
    }
  }
  return out;
}

export function credentialsFrom(headers: { get(name: string): string | null }): Credentials {
  return {
    bearer: bearerToken(headers.get('authorization'), 200),
    episodeToken: headers.get(EPISODE_TOKEN_HEADER)?.trim().slice(0, 200) || null,
    cookies: parseCookies(headers.get('cookie')),
  };
}

export const NO_CREDENTIALS: Credentials = { bearer: null, episodeToken: null, cookies: {} };

/** The admin cookie holds a digest of the token, not the token itself. */
export function adminCookieValue(adminToken: string): string {
  return createHash('sha256').update(`ecomrlve-admin-session:${adminToken}`).digest('base64url');
}

export function isAdmin(cfg: AuthConfig, creds: Credentials): boolean {
  if (!cfg.enabled) return true;
  if (!cfg.adminToken) return false;
  if (creds.bearer && sameSecret(creds.bearer, cfg.adminToken)) return true;
  const cookie = creds.cookies[ADMIN_COOKIE];
  return cookie !== undefined && sameSecret(cookie, adminCookieValue(cfg.adminToken));
}

/** The capability token this request presents for an episode (header, bearer or cookie). */
export function episodeTokenFor(creds: Credentials, episodeId: string): string | null {
  return creds.episodeToken ?? creds.cookies[episodeCookieName(episodeId)] ?? creds.bearer ?? null;
}

/** Throws UNAUTHORIZED unless the request may use the inspector and admin operations. */
export function requireAdmin(cfg: AuthConfig, creds: Credentials, what = 'this'): void {
  if (isAdmin(cfg, creds)) return;
  throw new AppError(
    'UNAUTHORIZED',
    cfg.adminToken
      ? `${what} needs the admin token (Authorization: Bearer <ECOMRLVE_ADMIN_TOKEN>, or sign in at /login)`
      : `${what} needs the admin token, and this server has none: set ECOMRLVE_ADMIN_TOKEN`,
  );
}

/**
 * Throws UNAUTHORIZED unless the request may act in this episode's agent seat: the admin, or
 * the holder of the episode's capability token. `check` compares a token with the stored hash.
 */
export async function requireAgent(
  cfg: AuthConfig,
  creds: Credentials,
  episodeId: string,
  check: (episodeId: string, token: string) => Promise<boolean>,
): Promise<void> {
  if (isAdmin(cfg, creds)) return;
  const token = episodeTokenFor(creds, episodeId);
  if (token && (await check(episodeId, token))) return;
  throw new AppError(
    'UNAUTHORIZED',
    `episode ${episodeId} needs its capability token (header ${EPISODE_TOKEN_HEADER}, given when the episode started)`,
  );
}
