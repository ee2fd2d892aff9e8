// Admin sign-in is throttled (issue 29): 10 wrong tokens per address per minute, and 100 per
// minute from all addresses together (an address header can be forged; the global bound holds
// anyway). Past either bound every attempt, right or wrong, is refused with RATE_LIMITED (429)
// until the window has room again, so guessing runs at 100 a minute at most, not 200 a second.
// The same throttle counts admin tokens presented as `Authorization: Bearer` on any route of the
// app or serve:env (`bearerAttempt`): a guess there is a sign-in too.
// Each process counts alone and holds the whole bound: a person sees the same 10 tries whichever
// serve:env worker answers; a guesser spreading connections over N workers gets at most N times
// the bounds (docs/security.md, "Admin sign-in").
import { AppError } from '@/server/lib/errors';
import { RateLimit } from '@/server/lib/rate-limit';

export const LOGIN_LIMITS = { perAddress: 10, overall: 100, windowMs: 60_000 } as const;

export function createLoginThrottle(now?: () => number) {
  const perAddress = new RateLimit({ max: LOGIN_LIMITS.perAddress, windowMs: LOGIN_LIMITS.windowMs, now });
  const overall = new RateLimit({ max: LOGIN_LIMITS.overall, windowMs: LOGIN_LIMITS.windowMs, now });
  return {
    /** Throws RATE_LIMITED when this address (or everyone) failed too often lately. */
    check(address: string): void {
      const wait = this.waitS(address);
      if (wait > 0) throw new AppError('RATE_LIMITED', throttledMessage(wait));
    },
    /** Seconds this address must wait before another attempt (0: it may try now). */
    waitS(address: string): number {
      return Math.max(perAddress.retryAfterS(address), overall.retryAfterS('*'));
    },
    failed(address: string): void {
      perAddress.hit(address);
      overall.hit('*');
    },
    succeeded(address: string): void {
      perAddress.clear(address);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export const throttledMessage = (waitS: number) => `too many wrong admin tokens; try again in ${waitS} s`;

/**
 * A request's `Authorization: Bearer` token as a sign-in attempt: a token that is not an
 * episode's capability (those all start "ept1.", server/episodes/tokens.ts) can only be the admin
 * token, so a wrong one counts as a failed sign-in, and past the bound any such request is
 * refused. Returns the seconds to wait when refused, else 0 (the request goes on, admin or not).
 */
export function bearerAttempt(
  throttle: LoginThrottle,
  address: string,
  bearer: string | null,
  isAdminToken: (token: string) => boolean,
): number {
  if (!bearer || bearer.startsWith('ept1.')) return 0;
  const wait = throttle.waitS(address);
  if (wait > 0) return wait;
  if (isAdminToken(bearer)) throttle.succeeded(address);
  else throttle.failed(address);
  return 0;
}

const g = globalThis as unknown as { __ecomLoginThrottle?: ReturnType<typeof createLoginThrottle> };
/** The server's one throttle (one per process, kept across Next's module reloads). */
export const loginThrottle = () => (g.__ecomLoginThrottle ??= createLoginThrottle());

/** The caller's address as Next passes it on (x-forwarded-for's first entry), or "unknown". */
export const callerAddress = (headers: { get(name: string): string | null }) =>
  headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 64) || headers.get('x-real-ip') || 'unknown';
