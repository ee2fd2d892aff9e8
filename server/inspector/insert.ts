// Writing whole episodes (imports, bench seeding): the Episode row, its events and actions in
// one transaction, so an episode is either stored completely or not at all. SQLite writes
// through the shared episode rows (server/episodes/sqlite-store) and each transaction indexes
// its new events for full-text search before it commits (text-index.ts): an imported episode is
// searchable as soon as the import returns. PostgreSQL's triggers count tool calls and queue
// events for its search index (pg-search.ts); its copies are made in pg-copy.ts.
import { randomBytes } from 'node:crypto';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import {
  jsonOrNull,
  type EventRow,
  prepareEpisodeRows,
  sqlDateTime,
  type EpisodeRowInsert,
} from '@/server/episodes/sqlite-store/rows';
import { prepareTextIndex, type WrittenEvents } from '@/server/episodes/sqlite-store/text-index';
import type { InspectorDb } from './db';
import { eventPayloadAndSearchText } from './search-text';
import { copyEpisodesPg } from './pg-copy';
import { encodeEpisodesPg, importSettingsPg, writeEncodedPg, type EncodedBatch, type PgSearchRows } from './pg-batch';
import { checkpointAfterBulk, holdCheckpoints } from './wal-checkpoint';

export interface EpisodeRecord extends EpisodeSetup {
  id?: string;
  createdAt?: string;
  status: 'active' | 'done';
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
  turn: number;
  player: string;
  hiddenGoal: HiddenGoal;
  events: EpisodeEvent[];
  actions: Array<{ format: 'text' | 'json'; raw: string; turn: number }>;
  goalRevealed: boolean;
  origin: string;
  runLabel: string | null;
  recorded: unknown;
  rescored: unknown;
  prompts: Array<string | null> | null;
  /** the reward revision the recorded reward was computed under (absent in older files: 1) */
  rewardRevision?: number;
}

/** Search text held for indexing before it is written to the index (characters): bounds the memory a large import holds. */
const INDEX_BATCH_CHARS = 32 * 1024 * 1024;
/** PostgreSQL: episodes an import writes per statement, and the JSON (characters) that ends a batch sooner. */
const PG_BATCH_EPISODES = 500;
const PG_BATCH_CHARS = 32 * 1024 * 1024;
/** Page cache of a SQLite bulk transaction (KiB; released when it ends). */
const BULK_CACHE_KIB = 256 * 1024;
/**
 * FTS5's pending-terms memory during a bulk transaction (bytes; its default is 1 MB, set back
 * before the commit). Past it FTS5 writes a segment, and merging many small segments was ~30 %
 * of the indexing's CPU in an import of 10,000 episodes.
 */
const BULK_FTS_HASH_BYTES = 128 * 1024 * 1024;
const FTS_DEFAULT_HASH_BYTES = 1024 * 1024;

export const newEpisodeId = () => `ep${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

const rowOf = (r: EpisodeRecord, id: string, created: string): EpisodeRowInsert => ({
  id,
  createdAt: created,
  envId: r.envId,
  d: r.d,
  seed: r.seed,
  axisOverrides: JSON.stringify(r.axisOverrides),
  axes: JSON.stringify(r.axes),
  weights: jsonOrNull(r.weights),
  catalogId: r.catalogId,
  player: r.player,
  turn: r.turn,
  status: r.status,
  terminationReason: r.terminationReason,
  reward: r.reward,
  isCorrect: r.isCorrect,
  breakdown: jsonOrNull(r.breakdown),
  hiddenGoal: JSON.stringify(r.hiddenGoal),
  eventCount: r.events.length,
  rewardRevision: r.rewardRevision ?? 1,
  goalRevealed: r.goalRevealed,
  origin: r.origin,
  runLabel: r.runLabel,
  recorded: jsonOrNull(r.recorded),
  rescored: jsonOrNull(r.rescored),
  prompts: jsonOrNull(r.prompts),
});
const createdOf = (r: EpisodeRecord) => sqlDateTime(r.createdAt ? new Date(r.createdAt) : new Date());

// PostgreSQL: the row, then an episode's events (and actions) in one statement each.
const PG_EPISODE_SQL = `INSERT INTO "Episode" ("id","createdAt","updatedAt","envId","d","seed","axisOverrides","axes","weights","catalogId",
  "status","terminationReason","reward","isCorrect","breakdown","turn","player","hiddenGoal","eventCount","rewardRevision","goalRevealed",
  "origin","runLabel","recorded","rescored","prompts") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;
const PG_EVENTS_SQL = `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
  SELECT ?::text, s, t, k, p FROM unnest(?::int[], ?::int[], ?::text[], ?::text[]) AS u(s, t, k, p)`;
const PG_ACTIONS_SQL = `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
  SELECT ?::text, s, t, f, r, ?::timestamp(3) FROM unnest(?::int[], ?::int[], ?::text[], ?::text[]) AS u(s, t, f, r)`;

/**
 * An episode as the rows it becomes (JSON already serialised): what the import's parsing
 * worker hands the writing thread (strings clone cheaply; parsed events would not).
 */
export interface PreparedEpisode {
  row: EpisodeRowInsert;
  events: EventRow[];
  /** each event's full-text search text (null: not searched); SQLite indexes it as it writes the events */
  texts: Array<string | null>;
  actions: EpisodeRecord['actions'];
  /** PostgreSQL: the search rows made from `texts` (by the parsing worker; made at writing time otherwise) */
  pgSearch?: PgSearchRows;
}

/** What became of an episode given to a writer: stored, skipped (its id is stored already), or why it was not. */
export type WriteOutcome = 'stored' | 'exists' | { error: string };

export function prepareEpisode(r: EpisodeRecord): PreparedEpisode {
  const row = rowOf(r, r.id ?? newEpisodeId(), createdOf(r));
  row.toolCalls = r.events.filter((e) => e.kind === 'tool_call').length;
  const events: EventRow[] = [];
  const texts: Array<string | null> = [];
  r.events.forEach((e, seq) => {
    const { payload, text } = eventPayloadAndSearchText(e);
    events.push({ seq, turn: e.turn, kind: e.kind, payload });
    texts.push(text);
  });
  return { row, events, texts, actions: r.actions };
}

async function insertPg(tx: InspectorDb, { row, events, actions }: PreparedEpisode): Promise<string> {
  const { id, createdAt: created } = row;
  await tx.run(PG_EPISODE_SQL, [
    ...[id, created, created, row.envId, row.d, row.seed, row.axisOverrides, row.axes, row.weights, row.catalogId],
    ...[row.status, row.terminationReason, row.reward, row.isCorrect, row.breakdown, row.turn, row.player],
    ...[row.hiddenGoal, row.eventCount, row.rewardRevision, row.goalRevealed, row.origin, row.runLabel],
    ...[row.recorded, row.rescored, row.prompts],
  ]);
  if (events.length)
    await tx.run(PG_EVENTS_SQL, [
      id,
      events.map((e) => e.seq),
      events.map((e) => e.turn),
      events.map((e) => e.kind),
      events.map((e) => e.payload),
    ]);
  if (actions.length)
    await tx.run(PG_ACTIONS_SQL, [
      id,
      created,
      actions.map((_, seq) => seq),
      actions.map((a) => a.turn),
      actions.map((a) => a.format),
      actions.map((a) => a.raw),
    ]);
  return id;
}

/** Writes whole episodes on either store; `tx` is the transaction an episode goes into. */
export function createInserter(
  db: InspectorDb,
  opts: { backgroundCheckpointFrom?: number; pgBatchEpisodes?: number } = {},
) {
  const pgBatchEpisodes = opts.pgBatchEpisodes ?? PG_BATCH_EPISODES;
  const sqlite = db.sqlite;
  const rows = sqlite ? prepareEpisodeRows(sqlite) : null;
  const index = sqlite ? prepareTextIndex(sqlite) : null;
  let inBulk = false;

  // Episodes written in the current bulk transaction, indexed from their search text (computed
  // in the import's parsing worker) before it commits: no json_extract pass re-reading the rows.
  let written: WrittenEvents[] = [];
  let writtenBytes = 0;
  const indexWritten = () => {
    index!.indexWritten(written);
    written = [];
    writtenBytes = 0;
  };
  // An episode is stored whole or not at all without a savepoint of its own (a savepoint per
  // episode journaled every index page it touched again: ~30 % of the inserts' CPU). The exact
  // rule instead: its Episode row goes in first; if that fails nothing was written, and if a
  // later statement fails, every row with its id is deleted again (the id was new: the row insert
  // would have failed otherwise). Event ids it used stay unused; nothing reads them.
  const forget = sqlite
    ? ['EpisodeEvent', 'EpisodeAction'].map((t) => sqlite.prepare(`DELETE FROM "${t}" WHERE "episodeId" = ?`))
    : [];
  const forgetEpisode = sqlite?.prepare('DELETE FROM "Episode" WHERE "id" = ?');
  const insertSqlite = async (tx: InspectorDb, p: PreparedEpisode): Promise<string> => {
    if (!inBulk) return bulk((t) => insertSqlite(t, p));
    const { row, events, texts, actions } = p;
    rows!.insertEpisode(row);
    let ids: number[];
    try {
      ids = rows!.insertEvents(row.id, events);
      actions.forEach((a, seq) => rows!.insertAction({ episodeId: row.id, seq, createdAt: row.createdAt, ...a }));
    } catch (e) {
      // SQLite ends the whole transaction on some errors (disk full, I/O): then the import fails.
      if (!sqlite!.inTransaction) throw new Error(`the import was rolled back: ${(e as Error).message}`, { cause: e });
      for (const del of forget) del.run(row.id);
      forgetEpisode!.run(row.id);
      throw e;
    }
    // Stored: index it with the others (FTS5 writes a segment at every savepoint; there is none now).
    written.push({ episodeId: row.id, ids, texts });
    for (const t of texts) writtenBytes += t?.length ?? 0;
    if (writtenBytes > INDEX_BATCH_CHARS) indexWritten();
    return row.id;
  };
  const insertPrepared = (tx: InspectorDb, p: PreparedEpisode) =>
    sqlite ? insertSqlite(tx, p) : tx.transaction((t) => insertPg(t, p));
  const insertOne = (tx: InspectorDb, r: EpisodeRecord) => insertPrepared(tx, prepareEpisode(r));

  /**
   * Runs `write` in one transaction; on SQLite it indexes what it wrote before the commit. A bulk
   * transaction is hundreds of MB: with SQLite's default 2 MB page cache its index pages were
   * spilled and read back over and over, so the cache grows to BULK_CACHE_KIB while it runs.
   * Its commit does not copy the WAL back to the database file (wal-checkpoint.ts: a thread does
   * that after it for a large WAL).
   */
  const ftsHash = sqlite?.prepare(`SELECT "v" FROM "EpisodeText_config" WHERE "k" = 'hashsize'`).pluck();
  const setFtsHash = sqlite?.prepare(`INSERT INTO "EpisodeText" ("EpisodeText", rank) VALUES ('hashsize', ?)`);
  const bulk = async <T>(write: (tx: InspectorDb) => Promise<T>): Promise<T> => {
    if (!sqlite || inBulk) return db.transaction(write);
    const cacheBefore = sqlite.pragma('cache_size', { simple: true }) as number;
    sqlite.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    holdCheckpoints(sqlite);
    inBulk = true;
    try {
      return await db.transaction(async (tx) => {
        const hashBefore = (ftsHash!.get() as number | undefined) ?? FTS_DEFAULT_HASH_BYTES;
        setFtsHash!.run(BigInt(BULK_FTS_HASH_BYTES)); // FTS5 takes an integer only (a JS number binds as REAL)
        const out = await write(tx);
        indexWritten(); // and whatever else is above the mark
        setFtsHash!.run(BigInt(hashBefore));
        return out;
      });
    } finally {
      inBulk = false;
      written = [];
      writtenBytes = 0;
      sqlite.pragma(`cache_size = ${cacheBefore}`);
      checkpointAfterBulk(sqlite, opts.backgroundCheckpointFrom);
    }
  };

  const exists = async (tx: InspectorDb, id: string) =>
    (await tx.get('SELECT 1 AS "one" FROM "Episode" WHERE "id" = ?', [id])) !== undefined;
  /** One episode as an import always stored it: skipped when its id is taken, else whole or not at all (insertPrepared). */
  const writeOne = async (tx: InspectorDb, p: PreparedEpisode): Promise<WriteOutcome> => {
    try {
      if (await exists(tx, p.row.id)) return 'exists';
      await insertPrepared(tx, p);
      return 'stored';
    } catch (e) {
      return { error: (e as Error).message };
    }
  };

  /**
   * Stores episodes in the order given, inside `bulk` (an import), telling `settle` what became
   * of each. SQLite writes each at once. PostgreSQL gathers them and writes a batch in one
   * statement per table (pg-batch.ts) in a savepoint; should any of the batch fail, the batch is
   * rolled back and its episodes written one by one as above, so every episode gets the outcome
   * it would have had alone and nothing of a failing one is stored. One batch is in flight while
   * the next is gathered and encoded: the server's work and this thread's overlap.
   */
  const writer = (tx: InspectorDb) => {
    let pending: Array<{ p: PreparedEpisode; settle: (o: WriteOutcome) => void }> = [];
    let chars = 0;
    let previous: Promise<void> | null = null;
    const write = async (batch: typeof pending, encoded: EncodedBatch) => {
      const ids = batch.map(({ p }) => p.row.id);
      const taken = new Set(
        (await tx.all<{ id: string }>('SELECT "id" FROM "Episode" WHERE "id" = ANY(?::text[])', [ids])).map(
          (r) => r.id,
        ),
      );
      // an id twice in the batch: the first is stored, the second skipped (as one by one)
      const outcomes = batch.map(({ p }): WriteOutcome =>
        taken.has(p.row.id) ? 'exists' : (taken.add(p.row.id), 'stored'),
      );
      try {
        const fresh = batch.filter((_, i) => outcomes[i] === 'stored').map(({ p }) => p);
        // ids already stored are rare (a file imported twice): then the batch is encoded again without them
        const params = fresh.length === batch.length ? encoded : encodeEpisodesPg(fresh);
        if (fresh.length) await tx.transaction((t) => writeEncodedPg(t, params));
      } catch {
        for (const { p, settle } of batch) settle(await writeOne(tx, p));
        return;
      }
      batch.forEach(({ settle }, i) => settle(outcomes[i]));
    };
    const dispatch = async () => {
      const batch = pending;
      pending = [];
      chars = 0;
      if (!batch.length) return;
      const encoded = encodeEpisodesPg(batch.map(({ p }) => p));
      await (previous ?? importSettingsPg(tx));
      previous = write(batch, encoded);
      previous.catch(() => undefined); // awaited by the next dispatch or by flush; not unhandled meanwhile
    };
    return {
      async add(p: PreparedEpisode, settle: (o: WriteOutcome) => void): Promise<void> {
        if (sqlite) return settle(await writeOne(tx, p));
        pending.push({ p, settle });
        for (const e of p.events) chars += e.payload.length;
        if (pending.length >= pgBatchEpisodes || chars >= PG_BATCH_CHARS) await dispatch();
      },
      /** Writes what is gathered and waits for it (before the import's transaction commits). */
      async flush(): Promise<void> {
        await dispatch();
        await previous;
      },
      /** Waits for the batch in flight, whatever its end (an import that fails must not leave statements running). */
      idle: async () => void (await previous?.catch(() => undefined)),
    };
  };

  return {
    exists,
    writer,
    /** One episode in its own transaction, or in `bulk`'s: stored whole or not at all. */
    insert: insertOne,
    /** The same for an episode already turned into rows (the import's parsing worker does that). */
    insertPrepared,
    /** Many episodes in one bulk transaction (bench seeding). */
    insertMany: (rs: EpisodeRecord[]) =>
      bulk(async (tx) => {
        const ids: string[] = [];
        for (const r of rs) ids.push(await insertOne(tx, r));
        return ids;
      }),
    /**
     * Many copies of stored episodes in one transaction (bench seeding): each record's own row
     * (id, date, seed, player…) with the log of the stored episode `from` (its events and actions
     * must be the record's), copied inside the store (SQLite: rows.copyLog; PostgreSQL: pg-copy.ts).
     */
    insertCopies: (copies: Array<{ from: string; record: EpisodeRecord }>) => {
      if (!rows)
        return db.transaction((tx) =>
          copyEpisodesPg(
            tx,
            copies.map(({ from, record }) => ({
              from,
              row: rowOf(record, record.id ?? newEpisodeId(), createdOf(record)),
              events: record.events.length,
              actions: record.actions.length,
            })),
          ),
        );
      return bulk(async () =>
        copies.map(({ from, record }) => {
          const id = record.id ?? newEpisodeId();
          const created = createdOf(record);
          rows.insertEpisode(rowOf(record, id, created));
          const copied = rows.copyLog(from, id, created);
          if (copied.events !== record.events.length || copied.actions !== record.actions.length)
            throw new Error(
              `episode "${from}" has ${copied.events} events and ${copied.actions} actions; its copy was given ${record.events.length} and ${record.actions.length}`,
            );
          return id;
        }),
      );
    },
    bulk,
  };
}
