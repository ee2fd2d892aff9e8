// Admin sign-in is throttled (issue 29): 10 wrong tokens per address per minute, and 100 per
// minute from all addresses together (an address header can be forged; the global bound holds
// anyway). Past either bound every attempt, right or wrong, is refused with RATE_LIMITED (429)
// until the window has room again, so guessing runs at 100 a minute at most, not 200 a second.
import { AppError } from '@/server/lib/errors';
import { RateLimit } from '@/server/lib/rate-limit';

export const LOGIN_LIMITS = { perAddress: 10, overall: 100, windowMs: 60_000 } as const;

export function createLoginThrottle(now?: () => number) {
  const perAddress = new RateLimit({ max: LOGIN_LIMITS.perAddress, windowMs: LOGIN_LIMITS.windowMs, now });
  const overall = new RateLimit({ max: LOGIN_LIMITS.overall, windowMs: LOGIN_LIMITS.windowMs, now });
  return {
    /** Throws RATE_LIMITED when this address (or everyone) failed too often lately. */
    check(address: string): void {
      const wait = Math.max(perAddress.retryAfterS(address), overall.retryAfterS('*'));
      if (wait > 0) throw new AppError('RATE_LIMITED', `too many wrong admin tokens; try again in ${wait} s`);
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

const g = globalThis as unknown as { __ecomLoginThrottle?: ReturnType<typeof createLoginThrottle> };
/** The server's one throttle (one per process, kept across Next's module reloads). */
export const loginThrottle = () => (g.__ecomLoginThrottle ??= createLoginThrottle());

/** The caller's address as Next passes it on (x-forwarded-for's first entry), or "unknown". */
export const callerAddress = (headers: { get(name: string): string | null }) =>
  headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 64) || headers.get('x-real-ip') || 'unknown';
