// Write budgets of an exposed app (auth on) for callers that are not the admin (issue 29: one
// anonymous client grew the database by 130–200 MB in 10 s). Counted per client (the address
// Next passes on as x-forwarded-for) and for all such clients together (that header can be
// forged, the total holds anyway): state-changing requests per minute (then 429) and the bytes
// they send per hour (then 413): a bound on what they can make the server store, since every
// stored action and episode starts as such a request. The admin and a local tool (auth off)
// are not counted. Settings: ECOMRLVE_CLIENT_WRITES_PER_MIN, ECOMRLVE_CLIENT_MB_PER_HOUR.
import { RateLimit } from './rate-limit';

const MB = 1024 * 1024;

export function clientBudgetLimits(env: Record<string, string | undefined> = process.env) {
  const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
  const writesPerMinute = num(env.ECOMRLVE_CLIENT_WRITES_PER_MIN, 600);
  const mbPerHour = num(env.ECOMRLVE_CLIENT_MB_PER_HOUR, 64);
  // all clients together: ten clients' worth
  return { writesPerMinute, mbPerHour, allWritesPerMinute: writesPerMinute * 10, allMbPerHour: mbPerHour * 10 };
}

export interface BudgetRefusal {
  status: 429 | 413;
  code: 'RATE_LIMITED' | 'QUOTA';
  message: string;
  retryAfterS: number;
}

export function createClientBudget(limits = clientBudgetLimits(), now?: () => number) {
  const minute = 60_000;
  const hour = 3_600_000;
  const writes = new RateLimit({ max: limits.writesPerMinute, windowMs: minute, now });
  const allWrites = new RateLimit({ max: limits.allWritesPerMinute, windowMs: minute, now });
  const bytes = new RateLimit({ max: limits.mbPerHour * MB, windowMs: hour, now });
  const allBytes = new RateLimit({ max: limits.allMbPerHour * MB, windowMs: hour, now });
  return {
    /** Counts one write of `size` bytes from `client`, or says why it is refused (nothing counted then). */
    charge(client: string, size: number): BudgetRefusal | null {
      const rate = Math.max(writes.retryAfterS(client), allWrites.retryAfterS('*'));
      if (rate > 0)
        return {
          status: 429,
          code: 'RATE_LIMITED',
          message: `too many requests: at most ${limits.writesPerMinute} changes a minute per client; try again in ${rate} s`,
          retryAfterS: rate,
        };
      const over = (r: RateLimit, key: string, max: number) => r.used(key) + size > max;
      if (over(bytes, client, limits.mbPerHour * MB) || over(allBytes, '*', limits.allMbPerHour * MB)) {
        const wait = Math.max(1, bytes.retryAfterS(client), allBytes.retryAfterS('*'));
        return {
          status: 413,
          code: 'QUOTA',
          message: `storage quota: at most ${limits.mbPerHour} MB of changes an hour per client (this request would pass it); try again later`,
          retryAfterS: wait,
        };
      }
      writes.hit(client);
      allWrites.hit('*');
      bytes.hit(client, size);
      allBytes.hit('*', size);
      return null;
    },
  };
}
