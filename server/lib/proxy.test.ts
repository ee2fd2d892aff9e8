// The app's first gate (proxy.ts, every route) and its security headers (next.config.ts):
// local means local on the app, with auth on or off (issue 29).
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import nextConfig from '@/next.config';
import { config, proxy } from '@/proxy';

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['ECOMRLVE_AUTH', 'ECOMRLVE_BIND', 'ECOMRLVE_PUBLIC_HOSTS', 'ECOMRLVE_ADMIN_TOKEN'])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

const at = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(url, { method: init.method ?? 'GET', headers: { host: new URL(url).host, ...init.headers } });

describe('proxy.ts', () => {
  it('runs on every route but static assets', () => {
    const pattern = new RegExp(`^${config.matcher[0]}$`);
    for (const path of ['/', '/episodes/abc', '/play/abc/step', '/api/trpc/seat.step', '/api/env/reset', '/models'])
      expect(pattern.test(path), path).toBe(true);
    expect(pattern.test('/_next/static/chunks/a.js')).toBe(false);
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

  it('refuses a cross-site POST to the step route with auth off (a page posting text/plain)', async () => {
    process.env.ECOMRLVE_AUTH = 'off';
    const post = (headers: Record<string, string>) =>
      proxy(at('http://127.0.0.1:3000/play/ep1/step', { method: 'POST', headers }));
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
  const post = (address: string, headers: Record<string, string> = {}) =>
    proxy(
      at('http://127.0.0.1:3000/api/trpc/seat.start', {
        method: 'POST',
        headers: { 'x-forwarded-for': address, 'content-length': '100', ...headers },
      }),
    );

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
