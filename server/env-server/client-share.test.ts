import { describe, expect, it } from 'vitest';
import { ClientShare } from './client-share';

const share = (max: number, perClient = 100, now?: () => number) =>
  new ClientShare({ max, perClient, what: 'sessions open', now });

describe('ClientShare: one policy for per-client caps and fair sharing', () => {
  it('lets one client use every place, then makes room for another by closing its least recently active one', () => {
    let t = 0;
    const s = share(4, 100, () => t++);
    const evicted: string[] = [];
    const a = [0, 1, 2, 3].map((i) => s.admit('a', { evict: () => evicted.push(`a${i}`) }));
    s.touch(a[0]); // a0 is now the most recently active
    s.admit('b', { evict: () => evicted.push('b0') });
    expect(evicted).toEqual(['a1']);
    expect(s.size).toBe(4);
  });

  it('refuses when no client holds more than the newcomer would (fair shares reached), or nothing may be evicted', () => {
    const s = share(4);
    const evict = () => {};
    for (const c of ['a', 'a', 'b', 'b']) s.admit(c, { evict });
    expect(() => s.admit('b', { evict })).toThrow(/has 4 sessions open, its limit \(ECOMRLVE_MAX_SESSIONS=4\)/);
    s.admit('c', { evict }); // c holds none: a or b gives one up
    expect(() => s.admit('a', { evict })).toThrow(/ECOMRLVE_MAX_SESSIONS=4/);
    const fixed = share(1);
    fixed.admit('a'); // no evict: never closed for another
    expect(() => fixed.admit('b')).toThrow(/ECOMRLVE_MAX_SESSIONS=1/);
  });

  it('caps one client, and frees a place when it is released or no longer alive', () => {
    const s = share(Infinity, 2);
    let running = true;
    const one = s.admit('a', { alive: () => running });
    s.admit('a');
    expect(() => s.admit('a')).toThrow(
      /this client has 2 sessions open, its limit \(ECOMRLVE_MAX_SESSIONS_PER_CLIENT=2\)/,
    );
    s.admit('b'); // another client is not capped by a's places
    running = false; // a's first episode ended
    s.admit('a');
    expect(() => s.admit('a')).toThrow(/PER_CLIENT=2/);
    expect(one.alive?.()).toBe(false);
    const s2 = share(1, 1);
    const p = s2.admit('a');
    s2.release(p);
    expect(s2.admit('a').client).toBe('a');
  });
});
