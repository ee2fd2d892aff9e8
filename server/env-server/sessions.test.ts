import { describe, expect, it } from 'vitest';
import type { Episode } from '@/server/engine';
import { SessionStore, newEpisodeId, sortableTime } from './sessions';

describe('newEpisodeId', () => {
  it('gives "ep_", 8 time and 12 random base64url characters, never the same twice across refills of its random pool', () => {
    const ids = Array.from({ length: 2000 }, () => newEpisodeId(1_764_567_000_000));
    for (const id of ids) expect(id).toMatch(/^ep_[A-Za-z0-9_-]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // the same millisecond: the same prefix; 72 random bits after it, every character in every position
    expect(new Set(ids.map((id) => id.slice(0, 11))).size).toBe(1);
    for (let i = 11; i < 23; i++) expect(new Set(ids.map((id) => id[i])).size).toBe(64);
  });

  it('sorts by the millisecond it was made in (byte order, as SQLite compares text)', () => {
    const times = [0, 1, 63, 64, 4095, 4096, 1_764_567_000_000, 1_764_567_000_001, 1_764_567_065_536, 2 ** 47];
    const ids = times.map((t) => newEpisodeId(t));
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byBytes).toEqual(ids);
    expect(sortableTime(0)).toBe('--------');
    expect(sortableTime(64)).toBe('------0-');
    expect(sortableTime(2 ** 48 - 1)).toBe('zzzzzzzz');
  });
});

describe('SessionStore at capacity', () => {
  const entry = (id: string, done: boolean) => ({
    id,
    config: { envId: 'PD' as const, d: 0, seed: 1 },
    run: null,
    episode: { done } as Episode,
    steps: 0,
    answered: new Map(),
  });

  it('makes room by dropping the least recently used finished episode, and refuses when all run', () => {
    const store = new SessionStore({ maxSessions: 3, idleTimeoutMs: 60_000 });
    store.add(entry('a', true));
    store.add(entry('b', false));
    store.add(entry('c', true));
    store.get('a'); // a is now the most recently used: c is the LRU finished one
    store.add(entry('d', false));
    expect(['a', 'b', 'c', 'd'].filter((id) => store.has(id))).toEqual(['a', 'b', 'd']);
    store.add(entry('e', false));
    expect(['a', 'b', 'd', 'e'].filter((id) => store.has(id))).toEqual(['b', 'd', 'e']);
    expect(() => store.add(entry('f', false))).toThrow(/holds 3 running episodes/);
  });

  it('with a store to rebuild from, drops the least recently used episode, running or not', () => {
    const store = new SessionStore({ maxSessions: 2, idleTimeoutMs: 60_000, evictRunning: true });
    store.add(entry('a', false));
    store.add(entry('b', false));
    store.get('a');
    store.add(entry('c', false));
    expect(['a', 'b', 'c'].filter((id) => store.has(id))).toEqual(['a', 'c']);
  });
});
