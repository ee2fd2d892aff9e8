// Per-client caps on episodes started over HTTP (POST /reset, MCP openenv/session/create), so one
// client cannot take every slot of the session store; WebSocket sessions are capped per
// connection in ws.ts. A client is its remote address. Episodes that ended or were dropped (idle
// reaper, eviction) stop counting: each check prunes the client's set first.

import { EnvServerError } from './errors';
import type { LiveEpisodes as SessionStore } from '@/server/episodes/live';

export function createClientCaps(maxPerClient: number) {
  const byClient = new Map<string, Set<string>>();

  /** The client's running episodes, pruned of those no longer held or finished. */
  function running(client: string, sessions: SessionStore): Set<string> {
    const ids = byClient.get(client) ?? new Set<string>();
    for (const id of ids) {
      const live = sessions.peek(id);
      if (!live || live.episode.done) ids.delete(id);
    }
    if (ids.size === 0) byClient.delete(client);
    return ids;
  }

  return {
    /** Throws CAPACITY_REACHED when the client already runs its cap of episodes. */
    admit(client: string | null, sessions: SessionStore): void {
      if (client === null) return;
      const n = running(client, sessions).size;
      if (n >= maxPerClient)
        throw new EnvServerError(
          'CAPACITY_REACHED',
          `this client runs ${n} episodes started over HTTP, its limit (ECOMRLVE_MAX_SESSIONS_PER_CLIENT=${maxPerClient}); finish some first`,
        );
    },
    started(client: string | null, episodeId: string): void {
      if (client === null) return;
      const ids = byClient.get(client) ?? new Set<string>();
      ids.add(episodeId);
      byClient.set(client, ids);
    },
  };
}

export type ClientCaps = ReturnType<typeof createClientCaps>;
