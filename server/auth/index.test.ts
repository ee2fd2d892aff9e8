import { describe, expect, it } from 'vitest';
import { authConfig } from '.';

describe('authConfig', () => {
  it('is off for a server bound to loopback (any 127.x address, ::1, localhost) and on beyond it', () => {
    for (const bind of ['', '127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost'])
      expect(authConfig({ ECOMRLVE_BIND: bind }).enabled, bind).toBe(false);
    for (const bind of ['0.0.0.0', '::', '192.168.1.20', 'playground.example.com'])
      expect(authConfig({ ECOMRLVE_BIND: bind }).enabled, bind).toBe(true);
    expect(authConfig({ ECOMRLVE_BIND: '127.0.0.1', ECOMRLVE_AUTH: 'on' }).enabled).toBe(true);
    expect(authConfig({ ECOMRLVE_BIND: '0.0.0.0', ECOMRLVE_AUTH: 'off' }).enabled).toBe(false);
  });
});
