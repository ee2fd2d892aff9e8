// Cookies a mutation hands the browser: HttpOnly (page scripts never read them), SameSite=Strict,
// Secure behind HTTPS. Set through the response headers of the tRPC route handler.
import { TRPCError } from '@trpc/server';
import { ADMIN_COOKIE, adminCookieValue, episodeCookieName, episodeCookiePath } from '@/server/auth';
import type { TrpcContext } from './init';

function setCookie(ctx: TrpcContext, name: string, value: string, opts: { path: string; maxAge: number }): void {
  if (!ctx.resHeaders)
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'a cookie can only be set over HTTP' });
  const secure = ctx.headers?.get('x-forwarded-proto') === 'https' ? '; Secure' : '';
  ctx.resHeaders.append(
    'set-cookie',
    `${name}=${encodeURIComponent(value)}; Path=${opts.path}; Max-Age=${opts.maxAge}; HttpOnly; SameSite=Strict${secure}`,
  );
}

/** The episode's capability token, scoped to its playground (/play/<id>): the agent seat's credential in a browser. */
export const setEpisodeCookie = (ctx: TrpcContext, episodeId: string, capabilityToken: string) =>
  setCookie(ctx, episodeCookieName(episodeId), capabilityToken, {
    path: episodeCookiePath(episodeId),
    maxAge: 30 * 24 * 3600,
  });

/** The admin's browser session: a digest of the admin token, not the token. */
export const setAdminCookie = (ctx: TrpcContext, adminToken: string) =>
  setCookie(ctx, ADMIN_COOKIE, adminCookieValue(adminToken), { path: '/', maxAge: 7 * 24 * 3600 });
