// Signing in as the admin in a browser (the admin token is checked once and a digest of it is
// kept in an HttpOnly cookie), and what the pages ask of the caller's role.
import { z } from 'zod';
import { isAdmin } from '@/server/auth';
import { callerAddress, loginThrottle } from '@/server/auth/login-throttle';
import { AppError } from '@/server/lib/errors';
import { setAdminCookie } from './cookies';
import { described, publicProcedure, router } from './init';

export const authRouter = router({
  signIn: publicProcedure.input(described(z.object({ token: z.string() }), 'sign in')).mutation(({ ctx, input }) => {
    if (!ctx.auth.enabled) return { admin: true };
    if (!ctx.auth.adminToken)
      throw new AppError('FORBIDDEN', 'this server has no admin token: set ECOMRLVE_ADMIN_TOKEN and restart it');
    // throttled per address and overall (server/auth/login-throttle.ts), right token or wrong
    const address = ctx.headers ? callerAddress(ctx.headers) : 'unknown';
    loginThrottle().check(address);
    if (!isAdmin(ctx.auth, { ...ctx.creds, bearer: input.token.trim().slice(0, 200) })) {
      loginThrottle().failed(address);
      throw new AppError('UNAUTHORIZED', 'that is not the admin token');
    }
    loginThrottle().succeeded(address);
    setAdminCookie(ctx, ctx.auth.adminToken);
    return { admin: true };
  }),
  /** Whether this caller is the admin (always, with auth off): pages offer admin views by it. */
  session: publicProcedure.query(({ ctx }) => ({ admin: isAdmin(ctx.auth, ctx.creds) })),
});
