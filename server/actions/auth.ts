'use server';
// Signing in as the admin in a browser: the admin token is checked once and a digest of it is
// kept in an HttpOnly cookie.
import { cookies, headers } from 'next/headers';
import { ADMIN_COOKIE, adminCookieValue, authConfig, credentialsFrom, isAdmin } from '@/server/auth';

export async function signInAction(token: string): Promise<{ ok: boolean; error?: string }> {
  const cfg = authConfig();
  if (!cfg.enabled) return { ok: true };
  if (!cfg.adminToken)
    return { ok: false, error: 'this server has no admin token: set ECOMRLVE_ADMIN_TOKEN and restart it' };
  const presented = {
    ...credentialsFrom(await headers()),
    bearer: typeof token === 'string' ? token.trim().slice(0, 200) : '',
  };
  if (!isAdmin(cfg, presented)) return { ok: false, error: 'that is not the admin token' };
  const secure = (await headers()).get('x-forwarded-proto') === 'https';
  (await cookies()).set(ADMIN_COOKIE, adminCookieValue(cfg.adminToken), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: 7 * 24 * 3600,
  });
  return { ok: true };
}
