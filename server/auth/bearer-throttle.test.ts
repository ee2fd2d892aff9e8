// An admin token guessed through `Authorization: Bearer` on any route is throttled like the
// sign-in (issue 29): the proxy's gate (requests without a body) and the gate the body-reading
// routes run count a wrong one as a failed sign-in; episode tokens (ept1.…) are not guesses.
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { bodyRequestGate } from '@/server/auth/request-gate';
import { LOGIN_LIMITS } from '@/server/auth/login-throttle';
import { authOnForFile } from './test/auth-on';

const ADMIN = 'bearer-throttle-admin-token';
authOnForFile(ADMIN);

const get = (path: string, address: string, bearer: string) =>
  proxy(
    new NextRequest(`http://127.0.0.1:3000${path}`, {
      headers: { host: '127.0.0.1:3000', 'x-forwarded-for': address, authorization: `Bearer ${bearer}` },
    }),
  );

describe('admin tokens guessed as a bearer', () => {
  it('answer 429 past the sign-in bound on any route, the right token too, and leave other addresses and episode tokens alone', () => {
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++)
      expect(get(i % 2 ? '/api/trpc/auth.session' : '/episodes', '10.9.0.1', `guess-${i}`).status).not.toBe(429);
    const refused = get('/api/inspector/export', '10.9.0.1', 'guess-again');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(get('/', '10.9.0.1', ADMIN).status).toBe(429); // a hit is not revealed while throttled
    // the gate of a route that reads a body holds the same count
    const post = new Request('http://127.0.0.1:3000/api/trpc/auth.session', {
      method: 'POST',
      headers: {
        host: '127.0.0.1:3000',
        'x-forwarded-for': '10.9.0.1',
        authorization: 'Bearer x',
        'content-length': '2',
      },
    });
    expect(bodyRequestGate(post)?.status).toBe(429);
    expect(get('/', '10.9.0.2', ADMIN).status).not.toBe(429);
    for (let i = 0; i < 2 * LOGIN_LIMITS.perAddress; i++)
      expect(get('/api/trpc/seat.get', '10.9.0.3', `ept1.ep${i}.sig`).status).not.toBe(429);
  });
});
