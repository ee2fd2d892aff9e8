// Events derived from actions, written later. The trainer's recorder stores per step only what
// cannot be derived — the action row and where the episode stands (turn, status, outcome) —
// and leaves the Episode row's watermark "eventsStored" below "eventCount" (NULL: every event
// is stored, which is what every other writer leaves). An episode is deterministic from its
// row's config and its actions (the golden test pins the engine), so its events are replayed
// and stored here: when the server idles (env-server/idle-materialiser.ts) and before any read
// of events (every reader calls `materialiseEvents` first, as search catches up its index).
// Since round 11 the worker that finished an episode writes out the log it still holds instead
// (storeEventLogs, env-server/finished-logs.ts: no replay); the replay is for everything else.
// The rows are byte for byte what the eager writers store (eventRows: JSON.stringify of each
// event), and the goal's text (summary + revealed slots, written only at reset and at the end
// by the recorder) is brought up to date with them.
//
// Safe against every concurrent writer without reading inside the transaction: events are
// inserted with ON CONFLICT DO NOTHING (a second materialiser inserts the same bytes), and the
// watermark only moves forward.
import { replayEpisode, replayRefusal, type Catalog } from '@/server/engine';
import { eventRows, type EventRow } from './sqlite-store/rows';
import {
  EVENTS_PENDING,
  IDS_PER_QUERY,
  insertEvents,
  pendingRows,
  type EventStoreDb,
  type PendingRow,
} from './event-log-store';
import { goalWithoutDataJson } from './stored-goal';
import { actionArgument, configOfRow, type EpisodeStore } from './store';

export { EVENTS_PENDING, storeEventLogs, type EventStoreDb } from './event-log-store';

/** The catalog an episode was played on (the app's registry, or a worker's own catalog). */
export type CatalogSource = (catalogId: string) => Catalog | Promise<Catalog>;

/** Episodes replayed per transaction (a backlog of thousands commits in a few hundred transactions). */
const EPISODES_PER_TX = 64;

export interface Materialised {
  episodes: number;
  events: number;
  /** 'all pending' only: episodes whose log could not be replayed (one broken log must not hold up every search). */
  failed: Array<{ id: string; error: string }>;
  /** The last episode id looked at ('all pending' reads in id order: pass it as `after` to go on). */
  last: string | null;
  /** 'all pending' with a budget only: the episodes still waiting after this call (null otherwise). */
  pending: number | null;
}

/** A row is pending when its watermark is below its event count (NULL: all stored). */
export const eventsPending = (row: { eventsStored: number | null; eventCount: number }) =>
  row.eventsStored !== null && row.eventsStored < row.eventCount;

/** Why an episode's events cannot be derived here (null: they can). */
function cannotDerive(row: PendingRow, catalog: Catalog): string | null {
  const refusal = replayRefusal(row.engineVersion, row.envId);
  if (refusal) return refusal;
  return row.catalogId === catalog.id ? null : `it was played on catalog ${row.catalogId}, not ${catalog.id}`;
}

/** Every event of the episode as stored, and its goal's text, replayed from config + actions. */
function replayed(row: PendingRow, catalog: Catalog, actions: readonly StoredAction[]) {
  const episode = replayEpisode(
    configOfRow(row),
    catalog,
    actions.map((a) => actionArgument({ format: a.format === 'json' ? 'json' : 'text', raw: a.raw })),
  );
  // The step's recorded event count (eventEnd) must be what the replay gives: the same engine.
  const recorded = actions.length > 0 ? actions[actions.length - 1].eventEnd : null;
  if (recorded !== null && Number(recorded) !== episode.events.length)
    throw new Error(
      `episode "${row.id}": replaying its ${actions.length} recorded actions gives ${episode.events.length} events, ` +
        `the store recorded ${recorded}`,
    );
  return { rows: eventRows(episode.events, 0), goal: goalWithoutDataJson(episode.hiddenGoal()) };
}

type StoredAction = { episodeId: string; format: string; raw: string; eventEnd: number | null };

/** The actions of a chunk's episodes in one query (round 10 read them one episode at a time), by episode, in order. */
async function actionsOf(db: EventStoreDb, ids: readonly string[]): Promise<Map<string, StoredAction[]>> {
  const byEpisode = new Map<string, StoredAction[]>(ids.map((id) => [id, []]));
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    const part = ids.slice(at, at + IDS_PER_QUERY);
    const rows = await db.all<StoredAction>(
      `SELECT "episodeId", "format", "raw", "eventEnd" FROM "EpisodeAction"
       WHERE "episodeId" IN (${part.map(() => '?').join(',')}) ORDER BY "episodeId", "seq"`,
      part,
    );
    for (const r of rows) byEpisode.get(r.episodeId)!.push(r);
  }
  return byEpisode;
}

/**
 * Stores the events (and the goal's current text) of the given episodes, or of every episode
 * whose events wait, that are not stored yet. Every reader of events calls this first. Returns
 * what it stored. With 'all pending' it works a chunk (EPISODES_PER_TX) at a time in id order:
 * `limit` bounds the episodes of one call (the idle materialiser takes a few at a time), and
 * `budgetMs` stops it after the chunk that crosses that time (at least one chunk, so every call
 * makes progress) and has it count what still waits (`pending`): a list under a trainer that
 * never lets the server idle must not wait for the whole backlog.
 *
 * An episode played under rules or on a catalog this process cannot replay is left as it is
 * (its reader sees the events stored so far). A log that does not replay (the replay does not
 * reproduce the recorded event count, a catalog that cannot load) throws, naming the episode,
 * for the episodes asked for by id; with 'all pending' it is reported in `failed` and the
 * others are stored.
 */
export async function materialiseEvents(
  db: EventStoreDb,
  which: readonly string[] | 'all pending',
  catalogOf: CatalogSource,
  {
    limit = Number.MAX_SAFE_INTEGER,
    after = '',
    budgetMs = Infinity,
    catalogId = null,
    skip = null,
  }: {
    limit?: number;
    after?: string;
    budgetMs?: number;
    /** 'all pending' only: only episodes played on this catalog (a worker replays no others). */
    catalogId?: string | null;
    /** 'all pending' only: episodes to pass over (read, not replayed): a worker's live ones, known failures. */
    skip?: ((id: string) => boolean) | null;
  } = {},
): Promise<Materialised> {
  const done: Materialised = { episodes: 0, events: 0, failed: [], last: null, pending: null };
  if (which !== 'all pending') {
    const rows = await pendingRows(db, which, 0, '');
    done.last = rows.at(-1)?.id ?? null;
    for (let at = 0; at < rows.length; at += EPISODES_PER_TX)
      await storeChunk(db, rows.slice(at, at + EPISODES_PER_TX), catalogOf, done, true);
    return done;
  }
  const started = performance.now();
  for (let left = limit; left > 0;) {
    const rows = await pendingRows(db, which, Math.min(EPISODES_PER_TX, left), done.last ?? after, catalogId);
    if (rows.length === 0) break;
    done.last = rows.at(-1)!.id;
    await storeChunk(db, skip ? rows.filter((r) => !skip(r.id)) : rows, catalogOf, done, false);
    left -= rows.length;
    if (rows.length < EPISODES_PER_TX || performance.now() - started >= budgetMs) break;
  }
  if (budgetMs !== Infinity) done.pending = await countEventsPending(db);
  return done;
}

/** Episodes whose events wait (a count over the partial index Episode_events_pending_idx). */
export async function countEventsPending(db: EventStoreDb): Promise<number> {
  const [row] = await db.all<{ n: number | bigint | string }>(
    `SELECT count(*) AS "n" FROM "Episode" WHERE ${EVENTS_PENDING}`,
  );
  return Number(row.n);
}

/** Replays a chunk of waiting episodes and stores their events in one transaction. */
async function storeChunk(
  db: EventStoreDb,
  rows: readonly PendingRow[],
  catalogOf: CatalogSource,
  done: Materialised,
  byId: boolean,
): Promise<void> {
  const derivable: Array<{ row: PendingRow; catalog: Catalog }> = [];
  const fail = (row: PendingRow, e: unknown) => {
    if (byId) throw e;
    done.failed.push({ id: row.id, error: (e as Error).message });
  };
  for (const row of rows) {
    try {
      const catalog = await catalogOf(row.catalogId);
      if (cannotDerive(row, catalog) === null) derivable.push({ row, catalog });
    } catch (e) {
      fail(row, e);
    }
  }
  if (derivable.length === 0) return;
  const actions = await actionsOf(
    db,
    derivable.map((d) => d.row.id),
  );
  const writes: Array<{ id: string; from: number; rows: EventRow[]; goal: string }> = [];
  for (const { row, catalog } of derivable) {
    try {
      writes.push({ id: row.id, from: Number(row.eventsStored), ...replayed(row, catalog, actions.get(row.id)!) });
    } catch (e) {
      fail(row, e);
    }
  }
  await db.transaction(async (tx) => {
    for (const w of writes) {
      await insertEvents(tx, w.id, w.rows.slice(w.from));
      // Forward only; the goal only when these events are all the episode has (a step
      // committed meanwhile has its own, newer goal to come).
      await tx.run(
        `UPDATE "Episode" SET "eventsStored" = ?, "hiddenGoal" = CASE WHEN "eventCount" = ? THEN ? ELSE "hiddenGoal" END
         WHERE "id" = ? AND "eventsStored" < ?`,
        [w.rows.length, w.rows.length, w.goal, w.id, w.rows.length],
      );
      done.episodes++;
      done.events += w.rows.length - w.from;
    }
  });
}

/**
 * An episode store's row and event reads, each materialising the episode's waiting events
 * first (the row is read again after, so its goal is the one that goes with them). The app's
 * episode service and re-score read through this.
 */
export function materialisingReads<S extends Pick<EpisodeStore, 'getRow' | 'getEvents'>>(
  reads: S,
  db: EventStoreDb,
  catalogOf: CatalogSource,
): S {
  return {
    ...reads,
    async getRow(id: string) {
      const row = await reads.getRow(id);
      if (!row || !eventsPending(row)) return row;
      await materialiseEvents(db, [id], catalogOf);
      return reads.getRow(id);
    },
    async getEvents(id: string) {
      await materialiseEvents(db, [id], catalogOf);
      return reads.getEvents(id);
    },
  };
}
