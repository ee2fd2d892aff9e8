import { describe, expect, it } from 'vitest';
import { isAppError } from '@/server/lib/errors';
import { HTTP_STATUS } from '@/server/lib/errors';
import { createLoginThrottle, LOGIN_LIMITS } from './login-throttle';

function refusal(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (!isAppError(e)) throw e;
    return `${HTTP_STATUS[e.code]} ${e.message}`;
  }
}

describe('admin sign-in throttle', () => {
  it('refuses an address after 10 wrong tokens in a minute, with a 429 saying when to retry', () => {
    let now = 0;
    const t = createLoginThrottle(() => now);
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      expect(refusal(() => t.check('10.0.0.1'))).toBeNull();
      t.failed('10.0.0.1');
      now += 1000;
    }
    expect(refusal(() => t.check('10.0.0.1'))).toBe('429 too many wrong admin tokens; try again in 50 s');
    expect(refusal(() => t.check('10.0.0.2'))).toBeNull(); // another address is not held back
    now = 60_001; // the first failure left the window
    expect(refusal(() => t.check('10.0.0.1'))).toBeNull();
  });

  it('holds everyone back after 100 failures a minute from all addresses together (forged addresses)', () => {
    const now = 0;
    const t = createLoginThrottle(() => now);
    for (let i = 0; i < LOGIN_LIMITS.overall; i++) t.failed(`forged-${i}`);
    expect(refusal(() => t.check('fresh-address'))).toMatch(/^429 too many wrong admin tokens/);
  });

  it('a success clears the address', () => {
    const t = createLoginThrottle(() => 0);
    for (let i = 0; i < LOGIN_LIMITS.perAddress - 1; i++) t.failed('a');
    t.succeeded('a');
    t.failed('a');
    expect(refusal(() => t.check('a'))).toBeNull();
  });
});
