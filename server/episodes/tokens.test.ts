import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerToken, capabilitySecret, createTokenService, matchesDigest, tokenDigest } from './tokens';
import { loadConfig } from '@/server/env-server/config';

describe('capability tokens', () => {
  const tokens = createTokenService({ secret: 's3cret', adminToken: 'admin-123' });

  it('allow their own episode only', () => {
    const t = tokens.issue('ep_a');
    expect(tokens.allows(t, 'ep_a')).toBe(true);
    expect(tokens.allows(t, 'ep_b')).toBe(false);
    expect(tokens.allows(tokens.issue('ep_b'), 'ep_a')).toBe(false);
  });

  it('reject a tampered signature, a missing token and another secret’s token', () => {
    const t = tokens.issue('ep_a');
    const flipped = t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');
    expect(tokens.allows(flipped, 'ep_a')).toBe(false);
    expect(tokens.allows(null, 'ep_a')).toBe(false);
    expect(createTokenService({ secret: 'other' }).allows(t, 'ep_a')).toBe(false);
  });

  it('are HMAC-SHA256 of "ept1.<episode id>" under the secret, so tokens issued before a restart stay valid', () => {
    const mac = createHmac('sha256', 's3cret').update('ept1.ep_a').digest('base64url');
    expect(tokens.issue('ep_a')).toBe(`ept1.ep_a.${mac}`);
    expect(createTokenService({ secret: 'sécret' }).issue('x')).toBe(
      `ept1.x.${createHmac('sha256', 'sécret').update('ept1.x').digest('base64url')}`,
    );
  });

  it('are accepted by another worker that shares the secret', () => {
    expect(createTokenService({ secret: 's3cret' }).allows(tokens.issue('ep_a'), 'ep_a')).toBe(true);
  });

  it('recognise the admin token, and no admin at all when none is configured', () => {
    expect(tokens.isAdmin('admin-123')).toBe(true);
    expect(tokens.isAdmin('admin-12')).toBe(false);
    expect(tokens.isAdmin(tokens.issue('ep_a'))).toBe(false);
    const none = createTokenService({});
    expect(none.adminEnabled).toBe(false);
    expect(none.isAdmin('')).toBe(false);
    expect(none.isAdmin('admin-123')).toBe(false);
  });

  it('match a remembered digest only for the very same token', () => {
    const t = tokens.issue('ep_a');
    const digest = tokenDigest(t);
    expect(matchesDigest(t, digest)).toBe(true);
    expect(matchesDigest(t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A'), digest)).toBe(false);
    expect(matchesDigest(tokens.issue('ep_b'), digest)).toBe(false);
    expect(matchesDigest('', digest)).toBe(false);
  });

  it('read the bearer header', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer  xyz ')).toBe('xyz');
    expect(bearerToken('Basic abc')).toBe(null);
    expect(bearerToken(undefined)).toBe(null);
  });
});

describe('one capability scheme for every seat', () => {
  it('signs with ECOMRLVE_TOKEN_SECRET, else a secret derived from the admin token, else none (random)', () => {
    expect(capabilitySecret({ ECOMRLVE_TOKEN_SECRET: 's1', ECOMRLVE_ADMIN_TOKEN: 'a' })).toBe('s1');
    const derived = capabilitySecret({ ECOMRLVE_ADMIN_TOKEN: 'a' });
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(capabilitySecret({ ECOMRLVE_ADMIN_TOKEN: 'b' })).not.toBe(derived);
    expect(capabilitySecret({})).toBeUndefined();
  });

  it('the playground’s token and the trainer API’s are the same for an episode (same secret: same token)', () => {
    const env = { ECOMRLVE_ADMIN_TOKEN: 'admin-x' };
    const seat = createTokenService({ secret: capabilitySecret(env) });
    const trainer = createTokenService({ secret: loadConfig(env, [], 'c').tokenSecret });
    const token = seat.issue('ep_1');
    expect(trainer.allows(token, 'ep_1')).toBe(true);
    expect(trainer.allows(token, 'ep_2')).toBe(false);
    expect(createTokenService({ secret: 'other' }).allows(token, 'ep_1')).toBe(false);
  });
});
