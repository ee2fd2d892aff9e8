import { describe, expect, it } from 'vitest';
import { SocketShare } from './socket-share';

describe('SocketShare', () => {
  it('lets one client use every place, then makes room for another by closing its least recently active one', () => {
    let t = 0;
    const share = new SocketShare(4, () => t++);
    const evicted: string[] = [];
    const a = [0, 1, 2, 3].map((i) => share.admit('a', () => evicted.push(`a${i}`)));
    expect(a.every(Boolean)).toBe(true);
    share.touch(a[0]!); // a0 is now the most recently active
    expect(share.admit('b', () => evicted.push('b0'))).not.toBeNull();
    expect(evicted).toEqual(['a1']);
    expect(share.size).toBe(4);
  });

  it('refuses when no client holds more than the newcomer would (fair shares reached)', () => {
    const share = new SocketShare(4);
    share.admit('a', () => {});
    share.admit('a', () => {});
    share.admit('b', () => {});
    share.admit('b', () => {});
    expect(share.admit('b', () => {})).toBeNull(); // b already holds its half
    expect(share.admit('c', () => {})).not.toBeNull(); // c holds none: a or b gives one up
    expect(share.admit('a', () => {})).toBeNull();
  });

  it('frees a place when a session ends', () => {
    const share = new SocketShare(1);
    const one = share.admit('a', () => {})!;
    expect(share.admit('a', () => {})).toBeNull();
    share.release(one);
    expect(share.admit('a', () => {})).not.toBeNull();
  });
});
