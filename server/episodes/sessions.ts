// The episodes one process holds, for every seat: the playground's and connected models' episode
// service (service.ts) and the trainer API (server/env-server/protocol.ts) share one of these
// per store, so the Next process has one live cache and one step (step.ts). It answers the
// questions both ask on every request: is this token the episode's capability, which live
// episode is it (the LRU, or rebuilt by replay from the store), and has everything it did been
// committed.
import type { Catalog } from '@/server/engine';
import type { EpisodeEvent } from '@/server/engine/types';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { rebuild, type LiveEpisode, type LiveEpisodes, type StoredLog } from './live';
import type { episodeReads } from './queries';
import type { Recorder } from './recorder';
import { matchesDigest, tokenDigest, type TokenService } from './tokens';
import { EpisodeServiceError } from './types';

export interface SessionsDeps {
  live: LiveEpisodes;
  tokens: TokenService;
  /** The store an episode missing from memory is rebuilt from; null: episodes live in memory only. */
  reads: ReturnType<typeof episodeReads> | null;
  /** The store's group commit every step is recorded through (null: memory only). */
  recorder: Recorder | null;
  /** The LLM customer's rewrite of the customer messages among a step's events (the app's); absent: templates only. */
  rewriteCustomer?(episodeId: string, voice: string | null, events: readonly EpisodeEvent[]): Promise<void>;
  /** The catalog a stored episode is replayed on (throws an AppError when this process cannot serve it). */
  catalogFor(catalogId: string): Catalog;
  /** Loads a catalog that is not in memory, before catalogFor (the app's registry). */
  loadCatalog?(catalogId: string): Promise<void>;
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(deps: SessionsDeps) {
  const { live, tokens, reads, catalogFor, loadCatalog } = deps;
  /**
   * Whether the token is the episode's capability. A held episode remembers the verified token's
   * digest: one hash instead of an HMAC per step (every step sends the token).
   */
  function allows(id: string, token: string | null, held?: LiveEpisode): boolean {
    if (!token) return false;
    if (held?.issuedToken && !held.tokenDigest) held.tokenDigest = tokenDigest(held.issuedToken);
    if (held?.tokenDigest ? matchesDigest(token, held.tokenDigest) : tokens.allows(token, id)) {
      if (held) held.tokenDigest ??= tokenDigest(token);
      return true;
    }
    return false;
  }

  /** Holds an episode; when the cache is full of running episodes it cannot drop, one sentence. */
  function add(entry: Omit<LiveEpisode, 'lastUsedAt'>): LiveEpisode {
    const held = live.add(entry);
    if (!held)
      throw new EpisodeServiceError(
        'BUSY',
        `the server holds ${live.size} running episodes, its limit (${live.limit}); finish or abandon some first`,
      );
    return held;
  }

  /** The episode replayed from its stored log (up to a step: what that step answered). */
  function replay(log: StoredLog, stepIndex?: number) {
    return rebuild(log, catalogFor(log.row.catalogId), stepIndex);
  }

  /** Each episode's latest write, awaited before its caller is answered (acknowledged = durable). */
  const writes = new Map<string, Promise<unknown>>();

  /**
   * The live episode: from the LRU or, on a miss, rebuilt from the store (`row` when the caller
   * has read it already). Null when neither holds it. `stored` is the log it was rebuilt from.
   */
  async function hold(id: string, row?: EpisodeRow): Promise<{ live: LiveEpisode; stored: StoredLog | null } | null> {
    const hit = live.get(id);
    if (hit) return { live: hit, stored: null };
    if (!reads) return null;
    // A write of this process still committing (an episode evicted mid-step): read after it.
    await writes.get(id)?.catch(() => {});
    const found = row ?? (await reads.getRow(id));
    if (!found) return null;
    const [events, actions] = await Promise.all([
      reads.getEvents(id),
      reads.getActions(id),
      loadCatalog?.(found.catalogId),
    ]);
    const stored: StoredLog = { row: found, events, actions };
    const rebuilt = replay(stored).live;
    // Another request may have rebuilt it while this one read the store.
    const held = live.get(id) ?? add(rebuilt);
    // The row is this episode's only if no other seat moved it past the row meanwhile.
    if (held.episode.events.length === found.eventCount) held.row ??= found;
    return { live: held, stored };
  }

  /** Remembers the episode's latest write (its failure surfaces through durable, never unhandled). */
  function track(id: string, write: Promise<unknown>): void {
    write.catch(() => {});
    writes.set(id, write);
  }

  /** Resolves once everything the episode did so far is committed; a failed write drops it from memory. */
  async function durable(id: string): Promise<void> {
    const write = writes.get(id);
    if (!write) return;
    try {
      await write;
    } catch (e) {
      live.drop(id);
      throw e;
    } finally {
      if (writes.get(id) === write) writes.delete(id);
    }
  }

  return {
    live,
    tokens,
    reads,
    recorder: deps.recorder,
    rewriteCustomer: deps.rewriteCustomer,
    allows,
    add,
    replay,
    hold,
    track,
    durable,
    /** Whether a write of the episode is still on its way to the store. */
    pending: (id: string) => writes.has(id),
  };
}
