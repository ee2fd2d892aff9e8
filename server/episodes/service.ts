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
import { isAppError } from '@/server/lib/errors';
import type { EpisodeEvent } from '@/server/engine/types';
import type { Catalog } from '@/server/engine/catalog/types';
import type { PrismaClient } from '@/server/generated/prisma/client';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { idSchema, listSchema, parse } from './inputs';
import { createEpisodeStore, viewOf, type EpisodeStore } from './store';
import { LiveEpisodes, type LiveEpisode } from './live';
import { recorderOf } from './recorder';
import { createSessions } from './sessions';
import { forkEpisode, type ForkOptions } from './fork';
import { startEpisode, type StartContext } from './start';
import { submitAction, type StepContext } from './step';
import { goalDataIsDerived } from './stored-goal';
import { processTokens, type TokenService } from './tokens';
import { databaseUrl, databaseUrlOf } from '@/server/db';
import { sqlDbFor, type SqlDb } from '@/server/db/sql';
import {
  EpisodeServiceError,
  type ActionInput,
  type CustomerVoice,
  type EpisodeSummary,
  type EpisodeView,
  type StartEpisodeInput,
  type WorldView,
} from './types';

export { MAX_ACTION_BYTES } from './inputs';

/** Per-episode caps: a long or chatty episode is stopped before it fills the disk. */
export const MAX_EPISODE_EVENTS = 2_000;
export const MAX_EPISODE_BYTES = 8 * 1024 * 1024;

/** The SQL layer's connection to the store a Prisma client talks to (server/db/index.ts remembers its URL). */
export function sqlDbOf(prisma: PrismaClient): SqlDb {
  return sqlDbFor(databaseUrlOf(prisma) ?? databaseUrl());
}

export interface EpisodeServiceDeps {
  prisma: PrismaClient;
  /** The SQL layer's connection to the same store: every episode write goes through it (writer.ts). Default: the process's for the client's URL. */
  db?: SqlDb;
  getCatalog: (catalogId?: string) => Catalog;
  /** Loads a catalog without blocking this thread (the app's registry: a worker thread); awaited before getCatalog. */
  loadCatalog?: (catalogId: string) => Promise<unknown>;
  defaultCatalogId: string;
  /** Live episodes kept in memory (least recently used are dropped and rebuilt on demand). */
  maxLive?: number;
  /** Per-episode caps (defaults MAX_EPISODE_EVENTS, MAX_EPISODE_BYTES). */
  maxEvents?: number;
  maxBytes?: number;
  /** Capability tokens (default: the process's, tokens.ts): one scheme for every seat. */
  tokens?: TokenService;
  /** The optional LLM customer (issue 9 item 8); without it, episodes use the templates only. */
  customerVoice?: CustomerVoice;
}

export function createEpisodeService(deps: EpisodeServiceDeps) {
  const db = deps.db ?? sqlDbOf(deps.prisma);
  const store: EpisodeStore = createEpisodeStore(db);
  const tokens = deps.tokens ?? processTokens();
  /** The process's live episodes, shared with the trainer API mounted in the app (/api/env). */
  const sessions = createSessions({
    live: new LiveEpisodes({ max: deps.maxLive }),
    tokens,
    reads: store,
    recorder: recorderOf(db),
    catalogFor,
    loadCatalog,
    rewriteCustomer,
  });
  const { live } = sessions;
  const maxEvents = deps.maxEvents ?? MAX_EPISODE_EVENTS;
  const maxBytes = deps.maxBytes ?? MAX_EPISODE_BYTES;
  /** Run fn after every earlier call for the same episode has finished. */
  const withLock = createKeyedLock();

  async function requireRow(id: string): Promise<EpisodeRow> {
    const safeId = parse(idSchema, id, 'episode id');
    const row = await store.getRow(safeId);
    if (!row) throw new EpisodeServiceError('NOT_FOUND', `no episode with id "${safeId}"`);
    return row;
  }

  /** A write of the row outside step.ts, between steps: the next step reads the row from the store. */
  const forgetRow = (id: string, write: () => Promise<void>) =>
    withLock(id, () => {
      const held = live.peek(id);
      if (held) held.row = undefined;
      return write();
    });

  /** The live episode, rebuilt by replay when it is not in memory. */
  async function liveEpisode(row: EpisodeRow): Promise<LiveEpisode> {
    const { live: held, stored } = (await sessions.hold(row.id, row))!;
    if (!stored) return held;
    const { events } = held.episode;
    if (events.length > stored.events.length)
      await store.addEvents(row.id, events.slice(stored.events.length), stored.events.length);
    return held;
  }

  /** Waits while a catalog that is not in memory loads (other requests go on meanwhile). */
  async function loadCatalog(catalogId: string): Promise<void> {
    try {
      await deps.loadCatalog?.(catalogId);
    } catch (e) {
      if (isAppError(e)) throw e;
      throw new EpisodeServiceError('BAD_INPUT', (e as Error).message);
    }
  }

  function catalogFor(catalogId: string): Catalog {
    try {
      return deps.getCatalog(catalogId);
    } catch (e) {
      if (isAppError(e)) throw e; // already precise (e.g. BUSY while a catalog loads)
      throw new EpisodeServiceError('BAD_INPUT', (e as Error).message);
    }
  }

  /** The view as the step that ended at eventEnd left it (idempotent retries). */
  async function viewAt(row: EpisodeRow, eventEnd: number | null): Promise<EpisodeView> {
    const events = await store.events(row.id);
    const end = eventEnd ?? events.length;
    if (goalDataIsDerived(row.hiddenGoal)) await loadCatalog(row.catalogId);
    const view = viewOf(row, events.slice(0, end), catalogFor);
    if (end === events.length) return view;
    // a later step changed the status: show the retried step's result as it was then
    return {
      ...view,
      status: 'active',
      terminationReason: null,
      reward: null,
      isCorrect: null,
      breakdown: null,
      turn: Math.max(0, ...view.events.map((e) => e.turn)),
    };
  }

  /** The view with the LLM customer's recorded messages (read back, never asked again). */
  async function voiced(view: EpisodeView): Promise<EpisodeView> {
    if (!view.customerVoice) return view;
    const rows = await store.getRewrites(view.id);
    return {
      ...view,
      customerRewrites: rows.map(({ turn, template, text, by, fallback }) => ({ turn, template, text, by, fallback })),
    };
  }

  /** Asks the LLM customer to rewrite the customer message among these events, and records its answer. */
  async function rewriteCustomer(episodeId: string, voice: string | null, events: readonly EpisodeEvent[]) {
    const message = events.find((e) => e.kind === 'customer_message');
    if (!voice || !deps.customerVoice || !message || message.kind !== 'customer_message') return;
    const r = await deps.customerVoice.rewrite(voice, message.text);
    await store.addRewrite({
      episodeId,
      turn: message.turn,
      template: message.text,
      text: r.text,
      by: r.by,
      fallback: r.fallback ?? null,
      record: r.record === undefined ? null : JSON.stringify(r.record),
    });
  }

  const context: StartContext & StepContext = {
    sessions,
    store,
    live,
    defaultCatalogId: deps.defaultCatalogId,
    customerVoice: deps.customerVoice,
    maxEvents,
    maxBytes,
    withLock,
    requireRow,
    liveEpisode,
    viewAt,
    loadCatalog,
    catalogFor,
    voiced,
    rewriteCustomer,
    tokens,
  };

  return {
    /** The live episodes, their capability checks and rebuild (the app's /api/env mount shares them). */
    sessions,
    /** For tests: forget every live episode, as a server restart would. */
    clearLive(): void {
      live.clear();
    },
    isLive(id: string): boolean {
      return live.has(id);
    },
    /** Drop live episodes that hold this catalog (it is being evicted from memory). */
    forgetCatalog(catalogId: string): void {
      live.forgetCatalog(catalogId);
    },

    /**
     * Starts an episode (start.ts). The capability token is returned once, here: the agent seat
     * presents it when auth is on; only its hash is stored.
     */
    startEpisode: (input: StartEpisodeInput) => startEpisode(context, input),

    /**
     * One agent turn (step.ts). With a step key, a retry of a step that was stored returns the
     * view as that step left it instead of taking another turn.
     */
    submitAction: (
      episodeId: string,
      action: ActionInput,
      opts: { stepKey?: string | null; actor?: string; modelRecord?: string } = {},
    ) => submitAction(context, episodeId, action, opts),

    /** The player reveals the hidden goal on purpose: recorded on an active episode, then returned. */
    async revealGoal(episodeId: string): Promise<EpisodeView> {
      const row = await requireRow(episodeId);
      if (row.status === 'active') await forgetRow(row.id, () => store.markRevealed(row.id));
      return this.getEpisode(row.id);
    },

    /** Whether this token is the episode's capability (its HMAC signature, checked in constant time). */
    async checkCapability(episodeId: string, token: string | null | undefined): Promise<boolean> {
      if (!token || token.length > 200 || !idSchema.safeParse(episodeId).success) return false;
      return sessions.allows(episodeId, token, live.peek(episodeId));
    },

    async getEpisode(episodeId: string): Promise<EpisodeView> {
      const row = await requireRow(episodeId);
      let events = await store.events(row.id);
      if (events.length < row.eventCount) {
        // stored by a deferred-events server: the rebuild stores the rest
        await withLock(row.id, () => liveEpisode(row));
        events = await store.events(row.id);
      }
      if (goalDataIsDerived(row.hiddenGoal)) await loadCatalog(row.catalogId);
      return voiced(viewOf(row, events, catalogFor));
    },

    /** Agent-visible world state (cart, today, …), from the live episode (rebuilt if needed). */
    async getWorld(episodeId: string): Promise<WorldView> {
      const row = await requireRow(episodeId);
      const held = await withLock(row.id, () => liveEpisode(row));
      return held.episode.world() as unknown as WorldView;
    },

    async listEpisodes(input: { cursor?: string | null; limit?: number } = {}): Promise<{
      items: EpisodeSummary[];
      nextCursor: string | null;
    }> {
      const inp = parse(listSchema, input, 'list episodes');
      return store.list({ cursor: inp.cursor ?? null, limit: inp.limit });
    },

    /**
     * Titles of catalog products, for display where a tool result or an answer has only ids
     * (catalog.rerank, recommended_product_ids). Unknown ids are left out.
     */
    productTitles(catalogId: string, ids: readonly string[]): Record<string, string> {
      const catalog = catalogFor(catalogId);
      const out: Record<string, string> = {};
      for (const id of ids) {
        const p = catalog.get(id);
        if (p) out[id] = p.title;
      }
      return out;
    },

    /**
     * A new episode whose first `turns` turns are the parent's, replayed (fork.ts). The fork is
     * active and continued by whoever plays it next.
     */
    forkEpisode: (parentId: string, turns: number, opts: ForkOptions = {}) =>
      forkEpisode(context, parentId, turns, opts),

    /** Parent and forks of an episode (the replay's family box). */
    async family(episodeId: string): Promise<{ parent: EpisodeSummary | null; forks: EpisodeSummary[] }> {
      const row = await requireRow(episodeId);
      return store.family(row);
    },

    /** Who took each turn, and a model's request/reply record when a model did (never a key). */
    async turnRecords(episodeId: string): Promise<Array<{ turn: number; actor: string | null; modelRecord: unknown }>> {
      const row = await requireRow(episodeId);
      const rows = await store.getActions(row.id);
      return rows.map((r) => ({
        turn: r.seq + 1,
        actor: r.actor,
        modelRecord: r.modelRecord ? JSON.parse(r.modelRecord) : null,
      }));
    },

    /** Marks (or clears, with null) an infrastructure failure of the last model turn: not scored. */
    async setInfraError(
      episodeId: string,
      infra: { kind: string; message: string; turn: number } | null,
    ): Promise<void> {
      const row = await requireRow(episodeId);
      await forgetRow(row.id, () => store.setInfraError(row.id, infra ? JSON.stringify(infra) : null));
    },

    /** Stored actions (for replay tools and tests). */
    async getActions(episodeId: string) {
      const row = await requireRow(episodeId);
      return store.getActions(row.id);
    },
  };
}

export type EpisodeService = ReturnType<typeof createEpisodeService>;
