// The live episodes held in memory, one cache for every seat (the episode service's playground
// and connected models, the trainer API): an LRU with idle expiry, and the rebuild of an episode
// that is not in it (restart, eviction, another worker stepped it) by replaying its stored
// actions, checked against its stored events. The store is the truth; this is only a cache.
import {
  replayEpisode,
  replayRefusal,
  sameEventButEvidence,
  type Catalog,
  type Episode,
  type EpisodeConfig,
  type StepResult,
} from '@/server/engine';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { StoredAction } from './queries';
import { actionArgument, configOfRow } from './store';
import { EpisodeServiceError } from './types';

/**
 * A step key's answer, for a retry that reaches this process again: the episode service keeps
 * the event count after the step (its view is rebuilt from it), the trainer API its answer as sent.
 */
interface StepAnswer {
  eventEnd?: number;
  response?: unknown;
}

export interface LiveEpisode {
  id: string;
  config: EpisodeConfig;
  /** The trainer's run name (player "trainer:<run>"), null otherwise. */
  run: string | null;
  episode: Episode;
  /** step() calls so far (= stored actions): the next action's seq */
  steps: number;
  /** answers by client step key, for retries that reach this process again */
  answered: Map<string, StepAnswer>;
  /** SHA-256 of the capability token once verified here (tokens.ts, tokenDigest) */
  tokenDigest?: Buffer;
  /** The token issued at reset; hashed into tokenDigest only when a caller presents one. */
  issuedToken?: string;
  /** The episode service's stored row as this process last wrote it (step.ts reads it instead of the store; unset: read it). */
  row?: EpisodeRow;
  /** Reset here by the trainer API: played as trainer:<run>, no customer voice (step.ts need not read its row). */
  trainerReset?: boolean;
  lastUsedAt: number;
}

export interface LiveOptions {
  /** Episodes held at most (default 500). */
  max?: number;
  /** The setting `max` comes from, named when the cache refuses an episode (serve:env's ECOMRLVE_MAX_SESSIONS). */
  maxSetting?: string;
  /** Dropped after this long unused (the idle reaper); default never. */
  idleMs?: number;
  /** Running episodes may make room too (they can be rebuilt from the store); default true. */
  evictRunning?: boolean;
  now?: () => number;
}

/** A Map iterates in insertion order; touching an entry re-inserts it, so the first is the LRU. */
export class LiveEpisodes {
  private readonly map = new Map<string, LiveEpisode>();
  private readonly now: () => number;
  constructor(private readonly options: LiveOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.map.size;
  }
  get capacity(): number {
    return this.options.max ?? 500;
  }
  /** The limit in words, with the setting that changes it. */
  get limit(): string {
    const { maxSetting } = this.options;
    return maxSetting ? `${maxSetting}=${this.capacity}` : `${this.capacity} live episodes`;
  }
  get idleMs(): number {
    return this.options.idleMs ?? Infinity;
  }

  /** Drops episodes unused this long from now on (the app's /api/env mount applies its idle timeout to the process's cache). */
  expireIdleAfter(ms: number): void {
    this.options.idleMs = ms;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  /** Holds an episode (replacing one of the same id), making room by dropping idle, then least recently used ones; null when full of running episodes that cannot be dropped. */
  add(entry: Omit<LiveEpisode, 'lastUsedAt'>): LiveEpisode | null {
    this.map.delete(entry.id);
    this.sweep();
    if (this.map.size >= this.capacity) {
      const victim = this.evictable();
      if (!victim) return null;
      this.map.delete(victim.id);
    }
    const live: LiveEpisode = { ...entry, lastUsedAt: this.now() };
    this.map.set(live.id, live);
    return live;
  }

  /** Holds an episode just started or forked (`steps` actions taken so far), with its stored row. */
  keep(episode: Episode, id: string, steps: number, row?: EpisodeRow): LiveEpisode | null {
    return this.add({ id, config: episode.config, run: null, episode, steps, answered: new Map(), row });
  }

  /** The episode, marked as used; undefined when not held (or idle too long). */
  get(id: string): LiveEpisode | undefined {
    const live = this.map.get(id);
    if (!live) return undefined;
    this.map.delete(id);
    if (this.expired(live)) return undefined;
    live.lastUsedAt = this.now();
    this.map.set(id, live);
    return live;
  }

  /** Looks without touching (no LRU or idle-clock change). */
  peek(id: string): LiveEpisode | undefined {
    return this.map.get(id);
  }

  drop(id: string): void {
    this.map.delete(id);
  }

  clear(): void {
    this.map.clear();
  }

  /** Drops live episodes on this catalog (it is being evicted from memory). */
  forgetCatalog(catalogId: string): void {
    for (const [id, live] of this.map) if (live.episode.catalogId === catalogId) this.map.delete(id);
  }

  /** Drops every idle episode; returns how many. */
  sweep(): number {
    let n = 0;
    for (const live of this.map.values()) {
      if (!this.expired(live)) break; // LRU order: none after it is idle longer
      this.map.delete(live.id);
      n++;
    }
    return n;
  }

  private evictable(): LiveEpisode | undefined {
    const any = this.options.evictRunning ?? true;
    for (const live of this.map.values()) if (any || live.episode.done) return live;
    return undefined;
  }

  private expired(live: LiveEpisode): boolean {
    return this.now() - live.lastUsedAt >= this.idleMs;
  }
}

/** An episode as stored: its row, its events' JSON and its actions. */
export interface StoredLog {
  row: EpisodeRow;
  events: ReadonlyArray<{ payload: string }>;
  actions: readonly StoredAction[];
}

/** The run name a trainer episode was stored under (player "trainer:<run>"; "trainer:unnamed" = none). */
export function runOfPlayer(player: string): string | null {
  const run = player.startsWith('trainer:') ? player.slice('trainer:'.length) : null;
  return run === 'unnamed' ? null : run;
}

/**
 * The stored episode rebuilt by replaying its actions; its event log must equal the stored one
 * event for event (else REPLAY_MISMATCH: the engine no longer reproduces it). The reward
 * event's evidence is explanation and may be worded differently (sameEventButEvidence). With
 * `stepIndex`, only the actions before that step are replayed and the step's own result is
 * returned too (what an idempotent retry answers).
 */
export function rebuild(
  log: StoredLog,
  catalog: Catalog,
  stepIndex?: number,
): { live: Omit<LiveEpisode, 'lastUsedAt'>; result: StepResult | null } {
  const { row } = log;
  const refusal = replayRefusal(row.engineVersion, row.envId);
  if (refusal) throw new EpisodeServiceError('REPLAY_UNSUPPORTED', `episode ${row.id}: ${refusal}`);
  const config = configOfRow(row);
  const actions = log.actions.map(actionArgument);
  const upTo = stepIndex ?? actions.length;
  const episode = replayEpisode(config, catalog, actions.slice(0, upTo));
  const result = stepIndex === undefined ? null : episode.step(actions[stepIndex]);
  // Whole: the row's event count. Up to a step: the events stored before it (a prefix of the log).
  const count = stepIndex === undefined ? row.eventCount : episode.events.length;
  if (episode.events.length !== count)
    throw new EpisodeServiceError(
      'REPLAY_MISMATCH',
      `replaying episode ${row.id} gave ${episode.events.length} events, but ${log.events.length} are stored ` +
        `(episode row says ${row.eventCount}); the engine no longer reproduces this episode`,
    );
  // An episode of a deferred-events server (before migration 20261202000000) may have only a
  // prefix of its events stored: the prefix must match; the episode service stores the rest.
  for (let i = 0; i < Math.min(count, log.events.length); i++)
    if (!sameEventButEvidence(episode.events[i], log.events[i].payload))
      throw new EpisodeServiceError(
        'REPLAY_MISMATCH',
        `replaying episode ${row.id} diverged at event ${i} (${episode.events[i].kind}, turn ${episode.events[i].turn})`,
      );
  const live = { id: row.id, config, run: runOfPlayer(row.player), episode, steps: upTo, answered: new Map() };
  return { live: result ? { ...live, steps: upTo + 1 } : live, result };
}
