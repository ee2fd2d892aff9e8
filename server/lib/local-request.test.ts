import { describe, expect, it } from 'vitest';
import { hostAllowed, localRequestRefusal, type RequestFacts } from './local-request';

const get = (host: string | null, extra: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  host,
  origin: null,
  secFetchSite: null,
  ...extra,
});

describe('Host', () => {
  it('accepts loopback names and addresses, the bound address and the listed public names', () => {
    for (const h of ['127.0.0.1:3000', 'localhost', 'LOCALHOST:80', '[::1]:3000', 'app.localhost:3000'])
      expect(hostAllowed(h, '127.0.0.1', {}), h).toBe(true);
    expect(hostAllowed('10.0.0.5:3000', '10.0.0.5', {})).toBe(true);
    expect(hostAllowed('play.example.com', '10.0.0.5', { ECOMRLVE_PUBLIC_HOSTS: 'Play.Example.com, x.org' })).toBe(
      true,
    );
    // bound to every address: any address is fine (a rebinding page cannot send one as Host)
    expect(hostAllowed('192.168.1.20:3000', '0.0.0.0', {})).toBe(true);
  });

  it('refuses any other name (DNS rebinding) with a 403 naming the setting', () => {
    for (const h of ['evil.example', 'evil.example:3000', '127.0.0.1.evil.example', 'localhost.evil.example'])
      expect(hostAllowed(h, '127.0.0.1', {}), h).toBe(false);
    expect(hostAllowed('evil.example', '0.0.0.0', {})).toBe(false);
    expect(localRequestRefusal(get('evil.example:3000'), '127.0.0.1', {})).toEqual({
      status: 403,
      code: 'FOREIGN_HOST',
      message:
        'this server does not answer to the host name "evil.example"; the operator lists public names in ECOMRLVE_PUBLIC_HOSTS',
    });
  });
});

describe('cross-site writes', () => {
  const post = (extra: Partial<RequestFacts>) => get('127.0.0.1:3000', { method: 'POST', ...extra });
  it('refuses a POST a browser marks cross-site or same-site, or whose Origin is another host', () => {
    for (const facts of [
      post({ secFetchSite: 'cross-site' }),
      post({ secFetchSite: 'same-site', origin: 'http://127.0.0.1:5173' }),
      post({ origin: 'http://evil.example' }),
      post({ origin: 'null' }),
    ])
      expect(localRequestRefusal(facts, '127.0.0.1', {})?.code).toBe('CROSS_SITE');
  });

  it('lets same-origin requests, programs without the headers and reads through', () => {
    for (const facts of [
      post({ secFetchSite: 'same-origin', origin: 'http://127.0.0.1:3000' }),
      post({ secFetchSite: 'none' }),
      post({ origin: 'http://127.0.0.1:3000' }),
      post({}),
      get('127.0.0.1:3000', { secFetchSite: 'cross-site' }),
    ])
      expect(localRequestRefusal(facts, '127.0.0.1', {})).toBeNull();
  });
});
