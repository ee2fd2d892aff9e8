// Per-client budgets (issue 29: one anonymous client grew the database by 130–200 MB in 10 s;
// serve:env stored 250 KB actions whole), one module for the app and serve:env. Counted per
// client (an address: the app's x-forwarded-for, serve:env's socket) and for all clients
// together (an address header can be forged, the total holds anyway):
// - requests that change state, per minute (then 429 RATE_LIMITED with Retry-After);
// - the bytes they send, per hour (then 413 QUOTA);
// - the bytes the server stored for the client, per day (then 413 QUOTA): the caller reports
//   them after each write (`stored`), so the quota stops the client at its quota plus one write.
// The app counts callers other than the admin with auth on; serve:env counts every client but
// the admin when it is exposed or a budget variable is set (`serveEnvBudgetLimits`).
// Settings: ECOMRLVE_CLIENT_WRITES_PER_MIN, ECOMRLVE_CLIENT_MB_PER_HOUR, ECOMRLVE_CLIENT_STORED_MB_PER_DAY.
import { isLoopbackBind } from './local-request';
import { RateLimit } from './rate-limit';

const MB = 1024 * 1024;
const BUDGET_VARS = [
  'ECOMRLVE_CLIENT_WRITES_PER_MIN',
  'ECOMRLVE_CLIENT_MB_PER_HOUR',
  'ECOMRLVE_CLIENT_STORED_MB_PER_DAY',
] as const;

export interface ClientBudgetLimits {
  writesPerMinute: number;
  mbPerHour: number;
  storedMbPerDay: number;
  allWritesPerMinute: number;
  allMbPerHour: number;
}

export function clientBudgetLimits(env: Record<string, string | undefined> = process.env): ClientBudgetLimits {
  const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
  const writesPerMinute = num(env.ECOMRLVE_CLIENT_WRITES_PER_MIN, 600);
  const mbPerHour = num(env.ECOMRLVE_CLIENT_MB_PER_HOUR, 64);
  const storedMbPerDay = num(env.ECOMRLVE_CLIENT_STORED_MB_PER_DAY, 256);
  // all clients together: ten clients' worth
  return {
    writesPerMinute,
    mbPerHour,
    storedMbPerDay,
    allWritesPerMinute: writesPerMinute * 10,
    allMbPerHour: mbPerHour * 10,
  };
}

/**
 * serve:env's budgets, or null: a trainer's own server on loopback is not counted (it steps
 * thousands of times a minute); one bound beyond loopback, or with a budget variable set, is.
 */
export function serveEnvBudgetLimits(host: string, env: Record<string, string | undefined>): ClientBudgetLimits | null {
  return isLoopbackBind(host) && !BUDGET_VARS.some((v) => env[v]) ? null : clientBudgetLimits(env);
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
  const storedBytes = new RateLimit({ max: limits.storedMbPerDay * MB, windowMs: 24 * hour, now });
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
      const stored = storedBytes.retryAfterS(client);
      if (stored > 0)
        return {
          status: 413,
          code: 'QUOTA',
          message: `storage quota: this client's writes stored ${limits.storedMbPerDay} MB in the last 24 hours (counted as what it sent and was answered), its quota (ECOMRLVE_CLIENT_STORED_MB_PER_DAY); try again in ${stored} s`,
          retryAfterS: stored,
        };
      const over = (r: RateLimit, key: string, max: number) => r.used(key) + size > max;
      if (over(bytes, client, limits.mbPerHour * MB) || over(allBytes, '*', limits.allMbPerHour * MB)) {
        const wait = Math.max(1, bytes.retryAfterS(client), allBytes.retryAfterS('*'));
        return {
          status: 413,
          code: 'QUOTA',
          message: `upload quota: at most ${limits.mbPerHour} MB of changes an hour per client (this request would pass it); try again later`,
          retryAfterS: wait,
        };
      }
      writes.hit(client);
      allWrites.hit('*');
      bytes.hit(client, size);
      allBytes.hit('*', size);
      return null;
    },
    /** Counts `size` bytes the server stored for `client` (its next write is refused past the quota). */
    stored(client: string, size: number): void {
      if (size > 0) storedBytes.hit(client, size);
    },
  };
}

export type ClientBudget = ReturnType<typeof createClientBudget>;
