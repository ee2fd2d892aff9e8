// The episode service: the only way the app starts, steps and reads episodes.
//
// - Live Episode objects sit in an in-memory Map. On a miss (server restart, eviction)
//   the episode is rebuilt with replayEpisode from its stored config and actions, and the
//   rebuilt event log must equal the stored one (else REPLAY_MISMATCH).
// - Each step's writes (action, new events, status/reward) go in ONE transaction. If it
//   fails, the live object (already stepped in memory) is evicted, so the next request
//   rebuilds from what is really stored.
// - Steps of one episode are serialised by a per-episode lock.
import { createKeyedLock } from '@/server/lib/keyed-lock';
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { createEpisode, ENGINE_VERSION, listEnvs, replayEpisode, replayRefusal } from '@/server/engine';
import { axesFor, AXIS_NAMES, type AxisValues } from '@/server/engine/difficulty';
import type { Action, EnvId, EpisodeConfig } from '@/server/engine/types';
import type { Catalog } from '@/server/engine/catalog/types';
import type { PrismaClient } from '@/server/generated/prisma/client';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { actionArgument, configOfRow, createEpisodeStore, toView, type EpisodeStore } from './store';
import { REWARD_REVISION } from '@/server/engine/reward';
import {
  EpisodeServiceError,
  type ActionInput,
  type EpisodeSummary,
  type EpisodeView,
  type HiddenGoal,
  type StartEpisodeInput,
  type WorldView,
} from './types';

type LiveEpisode = ReturnType<typeof createEpisode>;

/** Limit on one action's text (UTF-8 bytes), checked before the engine sees it. */
export const MAX_ACTION_BYTES = 64 * 1024;
export const MAX_SEED = 2_147_483_647;

const playerSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,63}$/, 'player must be a short lowercase name such as "human" or "oracle"');

const startSchema = z.strictObject({
  envId: z.string().min(1),
  d: z.int().min(0).max(100),
  seed: z.int().min(0).max(MAX_SEED).nullish(),
  axisOverrides: z.record(z.string(), z.number()).optional(),
  catalogId: z.string().min(1).max(200).optional(),
  player: playerSchema.optional(),
});

const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'episode id has invalid characters');

// Structured actions are checked for shape only; the engine judges their content
// (an empty assistant_message is the agent's mistake, scored as format_invalid).
const actionObjectSchema = z.object({
  assistant_message: z.string(),
  tool_calls: z
    .array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).optional() }))
    .max(100)
    .default([]),
  answer: z.record(z.string(), z.unknown()).nullable().default(null),
});

const listSchema = z.strictObject({
  cursor: z.string().max(64).nullish(),
  limit: z.int().min(1).max(100).default(20),
});

function zodMessage(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`).join('; ');
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new EpisodeServiceError('BAD_INPUT', `${what}: ${zodMessage(r.error)}`);
  return r.data;
}

export interface EpisodeServiceDeps {
  prisma: PrismaClient;
  getCatalog: (catalogId?: string) => Catalog;
  defaultCatalogId: string;
  /** Live episodes kept in memory (least recently used are dropped and rebuilt on demand). */
  maxLive?: number;
}

export function createEpisodeService(deps: EpisodeServiceDeps) {
  const store: EpisodeStore = createEpisodeStore(deps.prisma);
  const liveMap = new Map<string, LiveEpisode>();
  const maxLive = deps.maxLive ?? 500;
  // A small LRU: Map keeps insertion order, so re-inserting on access marks "recently used".
  const live = {
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
  };
  /** Run fn after every earlier call for the same episode has finished. */
  const withLock = createKeyedLock();

  const configOf = configOfRow;

  async function requireRow(id: string): Promise<EpisodeRow> {
    const safeId = parse(idSchema, id, 'episode id');
    const row = await store.getRow(safeId);
    if (!row) throw new EpisodeServiceError('NOT_FOUND', `no episode with id "${safeId}"`);
    return row;
  }

  /** The live Episode, rebuilt by replay when it is not in memory. */
  async function liveEpisode(row: EpisodeRow): Promise<LiveEpisode> {
    const hit = live.get(row.id);
    if (hit) return hit;
    const refusal = replayRefusal(row.engineVersion);
    if (refusal) throw new EpisodeServiceError('REPLAY_UNSUPPORTED', `episode ${row.id}: ${refusal}`);
    const [actions, events] = await Promise.all([store.getActions(row.id), store.getEvents(row.id)]);
    const ep = replayEpisode(configOf(row), deps.getCatalog(row.catalogId), actions.map(actionArgument));
    if (ep.events.length !== events.length || ep.events.length !== row.eventCount) {
      throw new EpisodeServiceError(
        'REPLAY_MISMATCH',
        `replaying episode ${row.id} gave ${ep.events.length} events, but ${events.length} are stored ` +
          `(episode row says ${row.eventCount}); the engine no longer reproduces this episode`,
      );
    }
    for (let i = 0; i < events.length; i++) {
      if (JSON.stringify(ep.events[i]) !== events[i].payload) {
        throw new EpisodeServiceError(
          'REPLAY_MISMATCH',
          `replaying episode ${row.id} diverged at event ${i} (${ep.events[i].kind}, turn ${ep.events[i].turn})`,
        );
      }
    }
    live.set(row.id, ep);
    return ep;
  }

  function goalOf(ep: LiveEpisode): HiddenGoal {
    const g = ep.hiddenGoal() as HiddenGoal;
    return { envId: g.envId, summary: g.summary, data: g.data, ...(g.slots !== undefined ? { slots: g.slots } : {}) };
  }

  return {
    /** For tests: forget every live episode, as a server restart would. */
    clearLive(): void {
      live.clear();
    },
    isLive(id: string): boolean {
      return live.has(id);
    },

    async startEpisode(input: StartEpisodeInput): Promise<EpisodeView> {
      const inp = parse(startSchema, input, 'start episode');
      const envs = listEnvs();
      if (!envs.some((e) => e.id === inp.envId)) {
        throw new EpisodeServiceError(
          'BAD_INPUT',
          `unknown environment "${inp.envId}"; available: ${envs.map((e) => e.id).join(', ')}`,
        );
      }
      const overrides = (inp.axisOverrides ?? {}) as Partial<AxisValues>;
      let axes: AxisValues;
      try {
        axes = axesFor(inp.d, overrides);
      } catch (e) {
        throw new EpisodeServiceError('BAD_INPUT', `axis overrides: ${(e as Error).message} (axes: ${AXIS_NAMES.join(', ')})`);
      }
      const catalogId = inp.catalogId ?? deps.defaultCatalogId;
      let catalog: Catalog;
      try {
        catalog = deps.getCatalog(catalogId);
      } catch (e) {
        throw new EpisodeServiceError('BAD_INPUT', (e as Error).message);
      }
      const seed = inp.seed ?? randomInt(0, MAX_SEED);
      const config: EpisodeConfig = {
        envId: inp.envId as EnvId,
        d: inp.d,
        seed,
        ...(Object.keys(overrides).length ? { axisOverrides: overrides } : {}),
      };
      const ep = createEpisode(config, catalog);
      ep.reset();
      const id = await store.createEpisode({
        envId: config.envId,
        d: config.d,
        seed,
        axisOverrides: overrides,
        axes: ep.axes ?? axes,
        weights: null,
        catalogId,
        player: inp.player ?? 'human',
        turn: ep.turn,
        status: ep.done ? 'done' : 'active',
        terminationReason: ep.termination,
        reward: ep.breakdown ? ep.breakdown.total : null,
        isCorrect: ep.breakdown ? ep.breakdown.isCorrect : null,
        breakdown: ep.breakdown,
        hiddenGoal: goalOf(ep),
        events: ep.events,
        engineVersion: ENGINE_VERSION,
        journeyEnvs: ep.config.journeyEnvs ?? null,
        rewardRevision: REWARD_REVISION,
      });
      live.set(id, ep);
      return this.getEpisode(id);
    },

    async submitAction(episodeId: string, action: ActionInput): Promise<EpisodeView> {
      const id = parse(idSchema, episodeId, 'episode id');
      let stepArg: string | Action;
      let record: { format: 'text' | 'json'; raw: string };
      if (typeof action === 'string') {
        const bytes = Buffer.byteLength(action, 'utf8');
        if (bytes > MAX_ACTION_BYTES) {
          throw new EpisodeServiceError(
            'TOO_LARGE',
            `action text is ${bytes} bytes; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was sent to the episode.`,
          );
        }
        stepArg = action;
        record = { format: 'text', raw: action };
      } else {
        if (typeof action !== 'object' || action === null || Array.isArray(action)) {
          throw new EpisodeServiceError('BAD_INPUT', 'action must be the agent text (a string) or an action object');
        }
        const obj = parse(actionObjectSchema, action, 'action') as Action;
        const raw = JSON.stringify(obj);
        const bytes = Buffer.byteLength(raw, 'utf8');
        if (bytes > MAX_ACTION_BYTES) {
          throw new EpisodeServiceError(
            'TOO_LARGE',
            `action is ${bytes} bytes as JSON; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was sent to the episode.`,
          );
        }
        stepArg = obj;
        record = { format: 'json', raw };
      }

      await withLock(id, async () => {
        const row = await requireRow(id);
        if (row.status === 'done') {
          throw new EpisodeServiceError(
            'EPISODE_DONE',
            `episode ${id} is finished (${row.terminationReason ?? 'done'}); it takes no more actions`,
          );
        }
        const ep = await liveEpisode(row);
        const prevEventCount = ep.events.length;
        const turnBefore = ep.turn;
        const actionSeq = await store.countActions(id);
        let result;
        try {
          result = ep.step(stepArg);
        } catch (e) {
          live.delete(id); // its state is unknown now; rebuild from the store next time
          throw e;
        }
        try {
          await store.appendStep({
            episodeId: id,
            prevEventCount,
            actionSeq,
            turnBefore,
            action: record,
            events: result.events,
            turn: ep.turn,
            status: ep.done ? 'done' : 'active',
            terminationReason: ep.termination,
            reward: ep.breakdown ? ep.breakdown.total : null,
            isCorrect: ep.breakdown ? ep.breakdown.isCorrect : null,
            breakdown: ep.breakdown,
            hiddenGoal: goalOf(ep),
          });
        } catch (e) {
          live.delete(id); // memory is one step ahead of the store: drop it
          if ((e as { code?: string }).code === 'P2025') {
            throw new EpisodeServiceError('CONFLICT', `episode ${id} was changed by another writer; reload and try again`);
          }
          throw e;
        }
      });
      return this.getEpisode(id);
    },

    async getEpisode(episodeId: string): Promise<EpisodeView> {
      const row = await requireRow(episodeId);
      const events = await store.getEvents(row.id);
      return toView(row, events);
    },

    /** Agent-visible world state (cart, today, …), from the live episode (rebuilt if needed). */
    async getWorld(episodeId: string): Promise<WorldView> {
      const row = await requireRow(episodeId);
      const ep = await withLock(row.id, () => liveEpisode(row));
      return ep.world() as unknown as WorldView;
    },

    async listEpisodes(input: { cursor?: string | null; limit?: number } = {}): Promise<{
      items: EpisodeSummary[];
      nextCursor: string | null;
    }> {
      const inp = parse(listSchema, input, 'list episodes');
      try {
        return await store.list({ cursor: inp.cursor ?? null, limit: inp.limit });
      } catch (e) {
        if ((e as { code?: string }).code === 'P2025') return { items: [], nextCursor: null };
        throw e;
      }
    },

    /**
     * Titles of catalog products, for display where a tool result or an answer has only ids
     * (catalog.rerank, recommended_product_ids). Unknown ids are left out.
     */
    productTitles(catalogId: string, ids: readonly string[]): Record<string, string> {
      let catalog: Catalog;
      try {
        catalog = deps.getCatalog(catalogId);
      } catch (e) {
        throw new EpisodeServiceError('BAD_INPUT', (e as Error).message);
      }
      const out: Record<string, string> = {};
      for (const id of ids) {
        const p = catalog.get(id);
        if (p) out[id] = p.title;
      }
      return out;
    },

    /** Stored actions (for replay tools and tests). */
    async getActions(episodeId: string) {
      const row = await requireRow(episodeId);
      return store.getActions(row.id);
    },
  };
}

export type EpisodeService = ReturnType<typeof createEpisodeService>;
