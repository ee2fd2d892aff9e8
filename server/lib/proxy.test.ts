// The app's first gate (proxy.ts on every route for requests without a body; the routes that read
// a body run the same gate before reading it, server/auth/request-gate.ts) and its security
// headers (next.config.ts): local means local on the app, with auth on or off (issue 29).
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import nextConfig from '@/next.config';
import { config, proxy } from '@/proxy';
import { bodyRequestGate } from '@/server/auth/request-gate';

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['ECOMRLVE_AUTH', 'ECOMRLVE_BIND', 'ECOMRLVE_PUBLIC_HOSTS', 'ECOMRLVE_ADMIN_TOKEN'])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

const at = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(url, { method: init.method ?? 'GET', headers: { host: new URL(url).host, ...init.headers } });

describe('proxy.ts', () => {
  it('runs on every route but static assets, for requests without a body', () => {
    const [only] = config.matcher;
    const pattern = new RegExp(`^${only.source}$`);
    for (const path of ['/', '/episodes/abc', '/play/abc/trpc/seat.step', '/api/trpc/seat.step', '/api/env/reset'])
      expect(pattern.test(path), path).toBe(true);
    expect(pattern.test('/_next/static/chunks/a.js')).toBe(false);
    // Next reads a body to its end before running a proxy: those requests skip it
    expect(only.missing.map((m) => m.key).sort()).toEqual(['content-length', 'transfer-encoding']);
  });

  it('the gate a body-reading route runs itself: only for a request with a body (the proxy saw the others)', () => {
    process.env.ECOMRLVE_AUTH = 'off';
    const req = (headers: Record<string, string>) =>
      new Request('http://rebound.example/api/trpc/play.start', { method: 'POST', headers });
    expect(bodyRequestGate(req({ host: 'rebound.example', 'content-length': '2' }))?.status).toBe(403);
    expect(bodyRequestGate(req({ host: 'rebound.example', 'transfer-encoding': 'chunked' }))?.status).toBe(403);
    expect(bodyRequestGate(req({ host: 'rebound.example' }))).toBeNull();
    expect(bodyRequestGate(req({ host: '127.0.0.1:3000', 'content-length': '2' }))).toBeNull();
  });

  it('refuses a foreign Host (DNS rebinding) with a 403, auth off', async () => {
    process.env.ECOMRLVE_AUTH = 'off';
    const res = proxy(at('http://rebound.example:3000/'));
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('FOREIGN_HOST');
    expect(proxy(at('http://127.0.0.1:3000/')).status).toBe(200);
    process.env.ECOMRLVE_PUBLIC_HOSTS = 'rebound.example';
    expect(proxy(at('http://rebound.example:3000/')).status).toBe(200);
  });

  it('refuses a cross-site POST to the playground seat with auth off (a page posting text/plain)', async () => {
    process.env.ECOMRLVE_AUTH = 'off';
    const post = (headers: Record<string, string>) =>
      proxy(at('http://127.0.0.1:3000/play/ep1/trpc/seat.step', { method: 'POST', headers }));
    expect(
      post({ 'content-type': 'text/plain', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }).status,
    ).toBe(403);
    expect(post({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }).status).toBe(200);
  });

  it('still sends visitors of the inspector lists to /login when auth is on', () => {
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = 'admin-secret';
    const res = proxy(at('http://127.0.0.1:3000/episodes'));
    expect(new URL(res.headers.get('location')!).pathname + new URL(res.headers.get('location')!).search).toBe(
      '/login?next=%2Fepisodes',
    );
    expect(proxy(at('http://127.0.0.1:3000/play/x')).status).toBe(200);
  });
});

describe('write budgets (auth on, not the admin)', () => {
  // a POST with a body meets the gate in its route (bodyRequestGate); one without, in the proxy
  const post = (address: string, headers: Record<string, string> = {}) =>
    bodyRequestGate(
      new Request('http://127.0.0.1:3000/api/trpc/seat.start', {
        method: 'POST',
        headers: { host: '127.0.0.1:3000', 'x-forwarded-for': address, 'content-length': '100', ...headers },
      }),
    ) ?? { status: 200, headers: new Headers(), json: async () => null };

  it('refuses an anonymous client past 600 changes a minute with 429 and Retry-After; the admin is not counted', async () => {
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = 'admin-secret';
    for (let i = 0; i < 600; i++) expect(post('198.51.100.7').status).toBe(200);
    const refused = post('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
    expect(post('198.51.100.8').status).toBe(200); // another client
    expect(post('198.51.100.7', { authorization: 'Bearer admin-secret' }).status).toBe(200);
    // the same budget in the proxy, for a POST without a body
    const bare = proxy(
      at('http://127.0.0.1:3000/api/trpc/seat.start', {
        method: 'POST',
        headers: { 'x-forwarded-for': '198.51.100.7' },
      }),
    );
    expect(bare.status).toBe(429);
  });

  it('stops an anonymous client’s bytes at 64 MB an hour with 413', async () => {
    process.env.ECOMRLVE_AUTH = 'on';
    process.env.ECOMRLVE_ADMIN_TOKEN = 'admin-secret';
    const big = { 'content-length': String(500 * 1024) };
    let status = 200;
    let sent = 0;
    while (status === 200 && sent < 200) {
      status = post('198.51.100.9', big).status;
      sent++;
    }
    expect(status).toBe(413);
    expect(sent).toBe(Math.floor((64 * 1024) / 500) + 1); // 131 fit, the 132nd passes the quota
  });

  it('counts nothing with auth off (a local tool)', () => {
    process.env.ECOMRLVE_AUTH = 'off';
    for (let i = 0; i < 700; i++) expect(post('198.51.100.10').status).toBe(200);
  });
});

describe('security headers (next.config.ts)', () => {
  it('every page is sent with frame, sniffing and referrer rules', async () => {
    const rules = await nextConfig.headers!();
    const all = rules.find((r) => r.source === '/:path*');
    expect(Object.fromEntries(all!.headers.map((h) => [h.key, h.value]))).toEqual({
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    });
  });
});
