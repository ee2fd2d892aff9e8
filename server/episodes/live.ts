// The episode service's live Episode objects: a small LRU in memory, and the rebuild by replay
// of an episode that is not in it (server restart, eviction), checked against the stored log.
import { replayEpisode, sameEventButEvidence, type createEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { actionArgument, configOfRow, type StoredAction } from './store';
import { EpisodeServiceError } from './types';

export type LiveEpisode = ReturnType<typeof createEpisode>;

/** An LRU of live episodes: Map keeps insertion order, so re-inserting on access marks "recently used". */
export function createLiveEpisodes(maxLive: number) {
  const liveMap = new Map<string, LiveEpisode>();
  return {
    get(id: string): LiveEpisode | undefined {
      const ep = liveMap.get(id);
      if (ep) {
        liveMap.delete(id);
        liveMap.set(id, ep);
      }
      return ep;
    },
    set(id: string, ep: LiveEpisode): void {
      liveMap.delete(id);
      liveMap.set(id, ep);
      while (liveMap.size > maxLive) liveMap.delete(liveMap.keys().next().value!);
    },
    delete: (id: string) => liveMap.delete(id),
    has: (id: string) => liveMap.has(id),
    clear: () => liveMap.clear(),
    forgetCatalog(catalogId: string) {
      for (const [id, ep] of liveMap) if (ep.catalogId === catalogId) liveMap.delete(id);
    },
  };
}
export type LiveEpisodes = ReturnType<typeof createLiveEpisodes>;

/**
 * The stored episode rebuilt by replaying its actions; its event log must equal the stored one
 * event for event (else REPLAY_MISMATCH: the engine no longer reproduces it). The reward event's
 * evidence is explanation and may be worded differently by this engine (sameEventButEvidence).
 * An episode recorded by a deferred-events server (before migration 20261202000000) may have
 * only a prefix of its row's `eventCount` events stored: `missing` is the rest, to be stored.
 */
export function rebuildStored(
  row: EpisodeRow,
  actions: readonly StoredAction[],
  events: ReadonlyArray<{ payload: string }>,
  catalog: Catalog,
): { ep: LiveEpisode; missing: number } {
  const ep = replayEpisode(configOfRow(row), catalog, actions.map(actionArgument));
  if (ep.events.length < events.length || ep.events.length !== row.eventCount) {
    throw new EpisodeServiceError(
      'REPLAY_MISMATCH',
      `replaying episode ${row.id} gave ${ep.events.length} events, but ${events.length} are stored ` +
        `(episode row says ${row.eventCount}); the engine no longer reproduces this episode`,
    );
  }
  for (let i = 0; i < events.length; i++) {
    if (!sameEventButEvidence(ep.events[i], events[i].payload)) {
      throw new EpisodeServiceError(
        'REPLAY_MISMATCH',
        `replaying episode ${row.id} diverged at event ${i} (${ep.events[i].kind}, turn ${ep.events[i].turn})`,
      );
    }
  }
  return { ep, missing: ep.events.length - events.length };
}
