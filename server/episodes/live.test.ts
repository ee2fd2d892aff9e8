import { describe, expect, it } from 'vitest';
import type { Episode } from '@/server/engine';
import { LiveEpisodes } from './live';
import { createSessions } from './sessions';
import { createTokenService } from './tokens';

const entry = (id: string, done: boolean) => ({
  id,
  config: { envId: 'PD' as const, d: 0, seed: 1 },
  run: null,
  episode: { done, catalogId: id === 'x' ? 'other' : 'test' } as Episode,
  steps: 0,
  answered: new Map(),
});
const held = (live: LiveEpisodes, ids: string[]) => ids.filter((id) => live.has(id));

describe('the live-episode cache', () => {
  it('without a store, makes room by dropping the least recently used finished episode, and refuses when all run', () => {
    const live = new LiveEpisodes({ max: 3, evictRunning: false });
    live.add(entry('a', true));
    live.add(entry('b', false));
    live.add(entry('c', true));
    live.get('a'); // a is now the most recently used: c is the LRU finished one
    live.add(entry('d', false));
    expect(held(live, ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'd']);
    live.add(entry('e', false));
    expect(held(live, ['a', 'b', 'd', 'e'])).toEqual(['b', 'd', 'e']);
    expect(live.add(entry('f', false))).toBeNull();
    expect(live.size).toBe(3);
  });

  it('with a store to rebuild from, drops the least recently used episode, running or not', () => {
    const live = new LiveEpisodes({ max: 2 });
    live.add(entry('a', false));
    live.add(entry('b', false));
    live.get('a');
    live.add(entry('c', false));
    expect(held(live, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('forgets episodes idle too long (the reaper), and those of an evicted catalog', () => {
    let now = 0;
    const live = new LiveEpisodes({ max: 10, idleMs: 1000, now: () => now });
    live.add(entry('a', false));
    live.add(entry('x', false));
    now = 600;
    expect(live.get('a')?.id).toBe('a'); // used: its idle clock restarts
    now = 1200;
    expect(live.sweep()).toBe(1);
    expect(held(live, ['a', 'x'])).toEqual(['a']);
    now = 1600;
    expect(live.get('a')).toBeUndefined();
    live.add(entry('a', false));
    live.add(entry('x', false));
    live.forgetCatalog('other');
    expect(held(live, ['a', 'x'])).toEqual(['a']);
  });

  it('a full cache refuses with its own limit: the setting its owner named, else its size', () => {
    const full = (maxSetting?: string) => {
      const live = new LiveEpisodes({ max: 1, maxSetting, evictRunning: false });
      const tokens = createTokenService({ secret: 's' });
      const sessions = createSessions({ live, tokens, reads: null, recorder: null, catalogFor: () => null as never });
      sessions.add(entry('a', false));
      return () => sessions.add(entry('b', false));
    };
    expect(full('ECOMRLVE_MAX_SESSIONS')).toThrow('its limit (ECOMRLVE_MAX_SESSIONS=1)');
    expect(full()).toThrow('its limit (1 live episodes)');
    expect(full()).not.toThrow(/ECOMRLVE_MAX_SESSIONS/);
  });
});
