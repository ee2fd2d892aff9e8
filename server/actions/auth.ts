'use server';
// Signing in as the admin in a browser: the admin token is checked once and a digest of it is
// kept in an HttpOnly cookie.
import { cookies, headers } from 'next/headers';
import { z } from 'zod';
import { callerCredentials, serverAction, type ActionResult } from './server-action';
import { ADMIN_COOKIE, adminCookieValue, authConfig, isAdmin } from '@/server/auth';
import { AppError } from '@/server/lib/errors';
import { callerAddress, loginThrottle } from '@/server/auth/login-throttle';

export async function signInAction(token: string): Promise<ActionResult<boolean>> {
  return serverAction('public', [z.string().describe('admin token')], [token], async (token) => {
    const cfg = authConfig();
    if (!cfg.enabled) return true;
    if (!cfg.adminToken)
      throw new AppError('FORBIDDEN', 'this server has no admin token: set ECOMRLVE_ADMIN_TOKEN and restart it');
    const address = callerAddress(await headers());
    loginThrottle().check(address);
    if (!isAdmin(cfg, { ...(await callerCredentials()), bearer: token.trim().slice(0, 200) })) {
      loginThrottle().failed(address);
      throw new AppError('UNAUTHORIZED', 'that is not the admin token');
    }
    loginThrottle().succeeded(address);
    const secure = (await headers()).get('x-forwarded-proto') === 'https';
    (await cookies()).set(ADMIN_COOKIE, adminCookieValue(cfg.adminToken), {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge: 7 * 24 * 3600,
    });
    return true;
  });
}
