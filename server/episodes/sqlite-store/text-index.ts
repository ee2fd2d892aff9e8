// Full-text indexing and the tool-call count, off the acknowledgement path.
//
// Why: a per-event trigger (json_extract + an FTS5 insert per message or tool call) cost
// ~2.2 ms per step inside the transaction that acknowledges the step. Now no writer indexes:
// "EpisodeTextIndexed"."upTo" is the highest EpisodeEvent id already indexed, and a catch-up
// indexes every event above it (EpisodeText, EpisodeTextOwner, Episode.toolCalls) in one
// transaction. EpisodeEvent ids only grow (AUTOINCREMENT) and SQLite has one writer, so the
// events above the mark are exactly the ones committed since the last catch-up, whoever wrote
// them (the hot path, the trainer's writer, Prisma, an import).
//
// When it runs (docs/inspector.md, "Freshness"): before every inspector list or search query
// (so a search sees every acknowledged step), inside each bulk import's own transaction, and
// in the background about a second after a writer commits (so queries rarely find work).
import type { Database } from 'better-sqlite3';
import { isSqliteBusy } from '@/server/lib/sqlite-busy';

const TEXT_KINDS = `('customer_message', 'agent_message', 'tool_call')`;

/**
 * The searchable text of a stored event (column "payload"): a tool call's name, arguments,
 * result and error; a message's text. `eventSearchText` (server/inspector/search-text.ts) is the
 * same in TypeScript: writers that compute it themselves (imports) index with `indexWritten`.
 */
export const SEARCH_TEXT_SQL = `CASE "kind"
       WHEN 'tool_call' THEN
         coalesce(json_extract("payload", '$.name'), '') || ' ' || coalesce(json_extract("payload", '$.args'), '') || ' ' ||
         coalesce(json_extract("payload", '$.result'), '') || ' ' || coalesce(json_extract("payload", '$.error'), '')
       ELSE coalesce(json_extract("payload", '$.text'), '') END`;

/** Events indexed per transaction by the background indexer (keeps each pause short). */
export const BACKGROUND_CHUNK = 4000;
/** Events indexed per transaction by a query's catch-up (~30 ms of write lock at a time). */
export const QUERY_CHUNK = 2000;
/** How long after a write the background indexer runs. */
export const BACKGROUND_DELAY_MS = 1000;

/** One episode's events as a writer stored them (`ids` in order), with each one's search text. */
export interface WrittenEvents {
  episodeId: string;
  ids: readonly number[];
  texts: ReadonlyArray<string | null>;
}

export function prepareTextIndex(db: Database) {
  const mark = db.prepare('SELECT "upTo" FROM "EpisodeTextIndexed"').pluck();
  const lastEvent = db.prepare('SELECT coalesce(max("id"), 0) FROM "EpisodeEvent"').pluck();
  // The id that ends a chunk of `limit` events above the mark (none when fewer are there).
  const chunkEnd = db.prepare('SELECT "id" FROM "EpisodeEvent" WHERE "id" > ? ORDER BY "id" LIMIT 1 OFFSET ?').pluck();
  const owners = db.prepare(
    `INSERT INTO "EpisodeTextOwner" ("rowid", "episodeId") SELECT "id", "episodeId" FROM "EpisodeEvent"
     WHERE "id" > @from AND "id" <= @to AND "kind" IN ${TEXT_KINDS}`,
  );
  const text = db.prepare(
    `INSERT INTO "EpisodeText" (rowid, body) SELECT "id", ${SEARCH_TEXT_SQL}
     FROM "EpisodeEvent" WHERE "id" > @from AND "id" <= @to AND "kind" IN ${TEXT_KINDS}`,
  );
  const toolCalls = db.prepare(
    `UPDATE "Episode" SET "toolCalls" = "Episode"."toolCalls" + c."n"
     FROM (SELECT "episodeId", count(*) AS "n" FROM "EpisodeEvent"
           WHERE "id" > @from AND "id" <= @to AND "kind" = 'tool_call' GROUP BY "episodeId") AS c
     WHERE "Episode"."id" = c."episodeId"`,
  );
  const setMark = db.prepare('UPDATE "EpisodeTextIndexed" SET "upTo" = ?');

  const ownerRow = db.prepare('INSERT INTO "EpisodeTextOwner" ("rowid", "episodeId") VALUES (?, ?)');
  const textRow = db.prepare('INSERT INTO "EpisodeText" (rowid, body) VALUES (?, ?)');

  /** Indexes the events with ids in (from, to] from their stored payload, and moves the mark to `to`. */
  const indexRange = (from: number, to: number) => {
    owners.run({ from, to });
    text.run({ from, to });
    toolCalls.run({ from, to });
    setMark.run(to);
  };

  /** Indexes up to `limit` events above the mark; returns how many events it covered. */
  const step = (limit: number): number => {
    const from = mark.get() as number;
    const last = lastEvent.get() as number;
    if (last <= from) return 0;
    const to = Math.min(last, (chunkEnd.get(from, limit - 1) as number | undefined) ?? last);
    indexRange(from, to);
    return to - from;
  };
  const stepTx = db.transaction(step);

  return {
    /** The id of the last event committed (ids only grow: a writer appended when it moved). */
    lastEvent: (): number => lastEvent.get() as number,
    /** Events committed but not indexed yet (0 = search sees everything). */
    pending: (): number => Math.max(0, (lastEvent.get() as number) - (mark.get() as number)),
    /**
     * Indexes everything above the mark. Inside a caller's transaction it joins it (an import
     * indexes its own events before its commit); otherwise it takes its own write transaction.
     */
    catchUp(): number {
      if (db.inTransaction) return step(Number.MAX_SAFE_INTEGER);
      return stepTx.immediate(Number.MAX_SAFE_INTEGER);
    },
    /**
     * Before a query: indexes what is pending so the query sees every event committed before it
     * started. In chunks of QUERY_CHUNK events, each its own transaction: a backlog of thousands
     * (serve:env's upkeep waits while its writers are busy) does not hold the write lock from
     * them all along. A busy database (a writer holding the lock past busy_timeout) leaves the
     * rest to the next query.
     */
    catchUpBeforeQuery(): void {
      if (db.inTransaction) return;
      const target = lastEvent.get() as number;
      try {
        while ((mark.get() as number) < target) if (stepTx.immediate(QUERY_CHUNK) === 0) break;
      } catch (e) {
        if (!isSqliteBusy(e)) throw e;
      }
    },
    /**
     * Inside the caller's transaction: indexes events it wrote with their search text already
     * computed (`eventSearchText`; null for kinds not searched), without reading the rows back,
     * then everything else above the mark from the stored rows, as `catchUp` does. `written`
     * is in write order. The caller counted these episodes' tool calls in their rows (the
     * catch-up would add them).
     * Call it outside any savepoint of the caller's: FTS5 flushes its pending terms to a new
     * segment at every savepoint, and a savepoint per episode made thousands of tiny segments.
     */
    indexWritten(written: ReadonlyArray<WrittenEvents>): void {
      if (!db.inTransaction) throw new Error('indexWritten runs inside the transaction that wrote the events');
      let at = mark.get() as number;
      for (const { episodeId, ids, texts } of written) {
        if (!ids.length) continue;
        if (ids.length !== texts.length) throw new Error(`${ids.length} events but ${texts.length} search texts`);
        if (ids[0] <= at) throw new Error(`events from ${ids[0]} on are already marked indexed`);
        if (ids[0] - 1 > at) indexRange(at, ids[0] - 1); // other writers' events in between
        for (let i = 0; i < ids.length; i++) {
          const body = texts[i];
          if (body === null) continue;
          ownerRow.run(ids[i], episodeId);
          textRow.run(ids[i], body);
        }
        at = ids[ids.length - 1];
      }
      setMark.run(at);
      step(Number.MAX_SAFE_INTEGER); // anything written after them
    },
    /** One bounded chunk in its own transaction (the background indexer). */
    catchUpChunk: (limit = BACKGROUND_CHUNK): number => stepTx.immediate(limit),
  };
}

export type TextIndex = ReturnType<typeof prepareTextIndex>;

/**
 * The background indexer of a writing process: `touch()` after a commit schedules a catch-up
 * BACKGROUND_DELAY_MS later (one at a time); it indexes in chunks, yielding to the event loop
 * between them. A busy database (another writer) just retries after the delay. Never throws
 * into the caller: a failure is logged once and retried on the next touch.
 */
export function backgroundIndexer(index: TextIndex, delayMs = BACKGROUND_DELAY_MS) {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let warned = false;
  const run = () => {
    timer = null;
    if (closed) return;
    try {
      if (index.catchUpChunk() > 0 && index.pending() > 0) {
        timer = setTimeout(run, 0);
        timer.unref();
      }
    } catch (e) {
      if (isSqliteBusy(e)) schedule();
      else if (!warned) {
        warned = true;
        console.error(`full-text indexing failed (retried on the next write): ${(e as Error).message}`);
      }
    }
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  return {
    touch: schedule,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
