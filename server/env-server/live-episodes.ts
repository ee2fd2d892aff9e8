// Stateless workers: any worker can take any step of any recorded episode. On a miss in a
// worker's LRU of live episodes (server/env-server/sessions.ts), the episode is rebuilt from
// the store by replaying its recorded actions, and the rebuilt event log must have the row's
// event count and equal every stored event. The store is the shared truth; a worker's copy is
// only a cache.

import {
  replayEpisode,
  replayRefusal,
  sameEventButEvidence,
  type Action,
  type Catalog,
  type StepResult,
} from '@/server/engine';
import type { PrismaClient } from '@/server/generated/prisma/client';
import { actionArgument, configOfRow, episodeReads } from '@/server/episodes/store';
import { EnvServerError } from './errors';
import type { LiveEpisode } from './sessions';

/** What a worker needs from the store to rebuild a trainer episode. */
export interface EpisodeLog {
  load(id: string): Promise<StoredEpisode | null>;
  /** How many events are stored for the episode (null: none recorded): is a worker's copy current? */
  eventCount(id: string): Promise<number | null>;
}

export interface StoredEpisode {
  id: string;
  config: LiveEpisode['config'];
  player: string;
  catalogId: string;
  engineVersion: number;
  /** The row's event count: how many events the recorded actions gave. */
  eventCount: number;
  /** Each stored event as JSON text, in order. */
  events: string[];
  /** Each step's argument, in order (raw text or a structured action). */
  actions: Array<string | Action>;
  /** Each step's idempotency key (null when none was sent). */
  stepKeys: Array<string | null>;
}

/** The episode log on the app's Prisma store (SQLite or PostgreSQL). */
export function prismaEpisodeLog(prisma: PrismaClient): EpisodeLog {
  const store = episodeReads(prisma);
  return {
    eventCount: (id) => store.eventCount(id),
    async load(id) {
      const row = await store.getRow(id);
      if (!row) return null;
      const [events, actions] = await Promise.all([store.getEvents(id), store.getActions(id)]);
      return {
        id,
        config: configOfRow(row),
        player: row.player,
        catalogId: row.catalogId,
        engineVersion: row.engineVersion,
        eventCount: row.eventCount,
        events: events.map((e) => e.payload),
        actions: actions.map(actionArgument),
        stepKeys: actions.map((a) => a.stepKey),
      };
    },
  };
}

/** The run name a trainer episode was recorded under (player "trainer:<run>"; "trainer:unnamed" = none). */
export function runOfPlayer(player: string): string | null {
  const run = player.startsWith('trainer:') ? player.slice('trainer:'.length) : null;
  return run === 'unnamed' ? null : run;
}

function unusable(id: string, why: string): EnvServerError {
  return new EnvServerError('EXECUTION_ERROR', `episode "${id}" cannot be continued on this worker: ${why}`, id);
}

/**
 * The live episode rebuilt from its stored actions, checked against its stored events; with
 * `stepIndex`, only the actions before that step are replayed and the step's own result is
 * returned too (what an idempotent retry answers).
 */
export function rebuildEpisode(
  stored: StoredEpisode,
  catalog: Catalog,
  stepIndex?: number,
): { live: Omit<LiveEpisode, 'createdAt' | 'lastUsedAt'>; result: StepResult | null } {
  const refusal = replayRefusal(stored.engineVersion, stored.config.envId);
  if (refusal) throw unusable(stored.id, refusal);
  if (stored.catalogId !== catalog.id)
    throw unusable(stored.id, `it was played on catalog ${stored.catalogId}, this worker serves ${catalog.id}`);
  const upTo = stepIndex ?? stored.actions.length;
  const episode = replayEpisode(stored.config, catalog, stored.actions.slice(0, upTo));
  const result = stepIndex === undefined ? null : episode.step(stored.actions[stepIndex]);
  // Whole: the row's event count. Up to a step: the events stored before it (a prefix of the log).
  const count = stepIndex === undefined ? stored.eventCount : episode.events.length;
  const expected = stored.events.slice(0, count);
  const same = episode.events.length === count && expected.every((e, i) => sameEventButEvidence(episode.events[i], e));
  if (!same)
    throw unusable(
      stored.id,
      `replaying its ${upTo} recorded actions does not reproduce its ${stored.eventCount} recorded events`,
    );
  return {
    live: {
      id: stored.id,
      config: stored.config,
      run: runOfPlayer(stored.player),
      episode,
      steps: upTo + (result ? 1 : 0),
      answered: new Map(),
    },
    result,
  };
}
