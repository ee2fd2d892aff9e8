// Live episodes held by this server: a capped map in least-recently-used order, with idle
// expiry. When full, the least recently used finished episode makes room; if every held
// episode is still running, a new one is refused (CAPACITY_REACHED) rather than dropping work.
// With a store to rebuild from (persistence on: `evictRunning`), it is a plain LRU cache: the
// least recently used episode makes room, running or not, and is rebuilt when next used.

import { randomFillSync } from 'node:crypto';
import type { Episode } from '@/server/engine';
import type { EpisodeConfig } from '@/server/engine';
import { EnvServerError } from './errors';

export interface LiveEpisode {
  id: string;
  config: EpisodeConfig;
  run: string | null;
  episode: Episode;
  /** step() calls so far (= recorded actions): the next action's seq */
  steps: number;
  /** responses by client step key, for retries that reach this worker again */
  answered: Map<string, unknown>;
  /** SHA-256 of the episode's capability token once issued or verified here (tokens.ts, tokenDigest) */
  tokenDigest?: Buffer;
  /** The token this worker issued at reset; hashed into tokenDigest only when a caller presents one (HTTP). */
  issuedToken?: string;
  createdAt: number;
  lastUsedAt: number;
}

export interface SessionStoreOptions {
  maxSessions: number;
  idleTimeoutMs: number;
  /** Running episodes may be evicted too (they can be rebuilt from the store). */
  evictRunning?: boolean;
  now?: () => number;
}

// Ids take 9 random bytes each from a pool refilled 256 ids at a time: randomBytes per id cost ~6 µs a reset.
const ID_BYTES = 9;
const idPool = Buffer.alloc(ID_BYTES * 256);
let idPoolUsed = idPool.length;

/** The base64url characters in byte order, so that the time prefix sorts as the time does. */
const SORTED_64 = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** Characters of the time prefix: 8 × 6 bits of milliseconds since 1970 (until the year 10889). */
const TIME_CHARS = 8;

/** The millisecond in SORTED_64, fixed width: later milliseconds give greater strings. */
export function sortableTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = SORTED_64[ms % 64] + out;
    ms = Math.floor(ms / 64);
  }
  return out;
}

/**
 * "ep_", 8 characters of the time and 12 base64url characters (72 random bits). Time first:
 * every index the store keys by episode id (the Episode primary key, the inspector's search
 * filter, the events' and actions' (episode, seq)) then grows at its end, so a group commit of
 * dozens of new episodes dirties a few pages instead of one random page per episode and index.
 * The id is a name, not a capability (the token is).
 */
export function newEpisodeId(now = Date.now()): string {
  if (idPoolUsed === idPool.length) {
    randomFillSync(idPool);
    idPoolUsed = 0;
  }
  idPoolUsed += ID_BYTES;
  return `ep_${sortableTime(now)}${idPool.toString('base64url', idPoolUsed - ID_BYTES, idPoolUsed)}`;
}

export class SessionStore {
  // A Map iterates in insertion order; touching an entry re-inserts it, so the first is the LRU.
  private readonly live = new Map<string, LiveEpisode>();
  private readonly now: () => number;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.live.size;
  }

  get capacity(): number {
    return this.options.maxSessions;
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  /** Holds a new episode, making room by dropping expired and then finished ones. */
  add(entry: Omit<LiveEpisode, 'createdAt' | 'lastUsedAt'>): LiveEpisode {
    if (this.live.has(entry.id))
      throw new EnvServerError('VALIDATION_ERROR', `episode_id "${entry.id}" is already in use`, entry.id);
    this.sweep();
    if (this.live.size >= this.options.maxSessions) {
      const finished = this.leastRecentlyUsedEvictable();
      if (!finished)
        throw new EnvServerError(
          'CAPACITY_REACHED',
          `the server holds ${this.live.size} running episodes, its limit (ECOMRLVE_MAX_SESSIONS=${this.options.maxSessions}); finish or abandon some first`,
        );
      this.live.delete(finished.id);
    }
    const t = this.now();
    const live: LiveEpisode = { ...entry, createdAt: t, lastUsedAt: t };
    this.live.set(live.id, live);
    return live;
  }

  /** The episode, marked as used; UNKNOWN_EPISODE when it is not (or no longer) held. */
  get(id: string): LiveEpisode {
    const live = this.live.get(id);
    if (!live || this.expired(live)) {
      if (live) this.live.delete(id);
      throw new EnvServerError(
        'UNKNOWN_EPISODE',
        `unknown episode_id "${id}": it was never started on this server, or it was dropped after ${Math.round(this.options.idleTimeoutMs / 1000)} s idle or to make room`,
        id,
      );
    }
    live.lastUsedAt = this.now();
    this.live.delete(id);
    this.live.set(id, live);
    return live;
  }

  /** Looks without touching (no LRU or idle-clock change). */
  peek(id: string): LiveEpisode | undefined {
    return this.live.get(id);
  }

  drop(id: string): void {
    this.live.delete(id);
  }

  /** Drops every idle episode; returns how many. */
  sweep(): number {
    let n = 0;
    for (const live of this.live.values()) {
      // LRU order: the first entry that is not expired means none after it are.
      if (!this.expired(live)) break;
      this.live.delete(live.id);
      n++;
    }
    return n;
  }

  /** The first (least recently used) episode that may make room; a walk, not a copy of the map on every full add. */
  private leastRecentlyUsedEvictable(): LiveEpisode | undefined {
    for (const live of this.live.values()) if (live.episode.done || this.options.evictRunning) return live;
    return undefined;
  }

  private expired(live: LiveEpisode): boolean {
    return this.now() - live.lastUsedAt >= this.options.idleTimeoutMs;
  }
}
