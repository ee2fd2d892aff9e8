// The one writer of the episode tables (Episode, EpisodeEvent, EpisodeAction, CustomerRewrite),
// whoever plays: the episode service (playground, connected models, forks), the trainer
// recorder (server/env-server), curriculum and batch runs, imports. Each write is a list of
// statements run in ONE transaction by the SQL layer (server/db/sql.ts, SQLite or
// PostgreSQL, the same SQL): an episode's row, events and actions together, or one step's
// action, events and progress together. A step's events are stored with the step: there is
// no deferred state, so whatever is acknowledged is readable and searchable at once (search
// indexing catches up before every query: search-index.ts).
//
// The rows are exactly the ones Prisma writes (DateTime as Prisma's text on SQLite, booleans,
// JSON as TEXT), so the Prisma reads of server/episodes/store.ts read them back unchanged.
import { randomUUID } from 'node:crypto';
import type { EpisodeEvent } from '@/server/engine/types';
import type { SqlDb, Stmt } from '@/server/db/sql';
import type { CustomerRewriteRow } from './queries';

let lastMs = 0;
let inMs = 0;
/**
 * A new episode id: time-ordered (ids made by this process sort in the order they were made),
 * random tail: a UUID's last 12 hex digits, all random (48 bits). randomUUID draws its entropy
 * in batches: ~20x cheaper per id than randomBytes(6), which enters OpenSSL every call.
 */
export function newEpisodeId(): string {
  const ms = Date.now();
  inMs = ms === lastMs ? inMs + 1 : 0;
  lastMs = ms;
  return `c${ms.toString(36)}${inMs.toString(36).padStart(3, '0')}${randomUUID().slice(24)}`;
}

/** JSON text of a nullable value (null stays NULL). */
export const jsonOrNull = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** An event as stored: the engine's event verbatim as JSON, with its position. */
export interface EventRow {
  seq: number;
  turn: number;
  kind: string;
  payload: string;
}

/** Event rows as stored, numbered from `firstSeq` (every writer serialises events here). */
export const eventRows = (events: readonly EpisodeEvent[], firstSeq: number): EventRow[] =>
  events.map((e, i) => ({ seq: firstSeq + i, turn: e.turn, kind: e.kind, payload: JSON.stringify(e) }));

/** Bytes an episode's events and actions take (the per-episode storage cap counts these). */
export const storedBytesOf = (events: readonly EventRow[], actions: ReadonlyArray<{ raw: string }>) =>
  events.reduce((n, r) => n + r.payload.length, 0) + actions.reduce((n, a) => n + a.raw.length, 0);

/** Where an episode stands: the columns a new episode and every step write. JSON already as text. */
export interface ProgressColumns {
  turn: number;
  status: string;
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: string | null;
  hiddenGoal: string;
  eventCount: number;
}

/** A new Episode row. Optional columns take the schema's default when left out. */
export interface EpisodeInsert extends ProgressColumns {
  id: string;
  createdAt?: Date;
  envId: string;
  d: number;
  seed: number;
  axisOverrides: string;
  axes: string;
  weights: string | null;
  catalogId: string;
  player: string;
  engineVersion?: number;
  rewardRevision?: number;
  journeyEnvs?: string | null;
  storedBytes?: number;
  parentId?: string | null;
  forkTurn?: number | null;
  runId?: string | null;
  customerVoice?: string | null;
  curriculumRunId?: string | null;
  infraError?: string | null;
  goalRevealed?: boolean;
  origin?: string;
  runLabel?: string | null;
  recorded?: string | null;
  rescored?: string | null;
  prompts?: string | null;
  trainStep?: number | null;
  rolloutGroup?: string | null;
}

export interface ActionInsert {
  seq: number;
  turn: number;
  format: 'text' | 'json';
  raw: string;
  stepKey?: string | null;
  eventEnd?: number | null;
  actor?: string | null;
  modelRecord?: string | null;
}

/** One step: its action, its events and where the episode stands after it. */
export interface StepWrite {
  episodeId: string;
  action: ActionInsert;
  events: readonly EventRow[];
  /** hiddenGoal null: unchanged since the last write (a trainer step skips rewriting it). */
  progress: Omit<ProgressColumns, 'hiddenGoal'> & { hiddenGoal: string | null };
  /** bytes the step adds to the episode's stored size */
  addedBytes: number;
  /** the event count the step started from: the row must still have it (no two writers interleave turns) */
  prevEventCount: number;
}

/** The episode moved on (another writer stepped it) or is gone; nothing of the step was stored. */
export class StaleEpisodeWrite extends Error {
  /** Prisma's "record not found" code, which the episode service's callers already know. */
  readonly code = 'P2025';
  constructor(readonly episodeId: string) {
    super(`episode ${episodeId} moved on or is gone`);
  }
}

/** A unique-key collision (the same action seq or step key stored twice), on either store. */
export const isUniqueViolation = (e: unknown) => {
  const code = (e as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

const EPISODE_COLUMNS =
  'id createdAt updatedAt envId d seed axisOverrides axes weights catalogId player turn status terminationReason reward isCorrect breakdown hiddenGoal eventCount engineVersion rewardRevision journeyEnvs storedBytes parentId forkTurn runId customerVoice curriculumRunId infraError goalRevealed origin runLabel recorded rescored prompts trainStep rolloutGroup'.split(
    ' ',
  );

/** The schema's defaults of the optional columns a new row may leave out (the others default to NULL). */
const COLUMN_DEFAULTS: Record<string, unknown> = {
  engineVersion: 1,
  rewardRevision: 1,
  storedBytes: 0,
  goalRevealed: false,
  origin: 'engine',
};

const INSERT_EPISODE = `INSERT INTO "Episode" (${EPISODE_COLUMNS.map((c) => `"${c}"`).join(',')})
  VALUES (${EPISODE_COLUMNS.map(() => '?').join(',')})`;
const ACTION_COLUMNS = `"episodeId","seq","turn","format","raw","createdAt","stepKey","eventEnd","actor","modelRecord"`;
const UPDATE_PROGRESS = `UPDATE "Episode" SET "updatedAt" = ?, "turn" = ?, "status" = ?, "terminationReason" = ?,
  "reward" = ?, "isCorrect" = ?, "breakdown" = ?, "hiddenGoal" = coalesce(?, "hiddenGoal"), "eventCount" = ?,
  "storedBytes" = "storedBytes" + ?, "infraError" = NULL
  WHERE "id" = ? AND "eventCount" = ?`;
// A step after which the episode runs on changes only where it stands: SQLite rewrites an index
// on UPDATE only when the SET list names one of its columns, so this leaves the search-filter
// index alone (status, reward, … stay as created until the episode ends).
const UPDATE_RUNNING = `UPDATE "Episode" SET "updatedAt" = ?, "turn" = ?, "hiddenGoal" = coalesce(?, "hiddenGoal"),
  "eventCount" = ?, "storedBytes" = "storedBytes" + ?, "infraError" = NULL
  WHERE "id" = ? AND "eventCount" = ? AND "status" = 'active'`;

/** Rows per multi-row insert (10 parameters at most each; SQLite allows 32,766, PostgreSQL 65,535). */
const ROWS_PER_INSERT = 64;

/** `INSERT … VALUES (…),(…)` for 1..ROWS_PER_INSERT rows, made once (a step's insert is one of them). */
const multiRow = (head: string, row: string) =>
  Array.from({ length: ROWS_PER_INSERT + 1 }, (_, n) => `${head} VALUES ${Array(n).fill(row).join(',')}`);
const INSERT_EVENTS = multiRow(`INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")`, '(?,?,?,?,?)');
const INSERT_ACTIONS = multiRow(`INSERT INTO "EpisodeAction" (${ACTION_COLUMNS})`, '(?,?,?,?,?,?,?,?,?,?)');

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) out.push(rows.slice(at, at + ROWS_PER_INSERT));
  return out;
}

/** The statements of the writes, for the store `db` (its dialect's timestamps). */
export function episodeStatements(db: Pick<SqlDb, 'timestamp'>) {
  const events = (episodeId: string, rows: readonly EventRow[]): Stmt[] =>
    chunks(rows).map((part) => ({
      sql: INSERT_EVENTS[part.length],
      args: part.flatMap((r) => [episodeId, r.seq, r.turn, r.kind, r.payload]),
    }));
  const actions = (episodeId: string, rows: readonly ActionInsert[], now: string): Stmt[] =>
    chunks(rows).map((part) => ({
      sql: INSERT_ACTIONS[part.length],
      args: part.flatMap((a) => [
        episodeId,
        a.seq,
        a.turn,
        a.format,
        a.raw,
        now,
        a.stepKey ?? null,
        a.eventEnd ?? null,
        a.actor ?? null,
        a.modelRecord ?? null,
      ]),
    }));

  return {
    events,
    /** A whole episode: its row, events and actions. */
    newEpisode(row: EpisodeInsert, eventRows: readonly EventRow[], actionRows: readonly ActionInsert[] = []): Stmt[] {
      const now = db.timestamp(row.createdAt ?? new Date());
      const values: Record<string, unknown> = { ...row, createdAt: now, updatedAt: now };
      return [
        { sql: INSERT_EPISODE, args: EPISODE_COLUMNS.map((c) => values[c] ?? COLUMN_DEFAULTS[c] ?? null) },
        ...events(row.id, eventRows),
        ...actions(row.id, actionRows, now),
      ];
    },

    /** One step: the progress first (checked against the event count it started from), then action and events. */
    step(s: StepWrite): Stmt[] {
      const now = db.timestamp(new Date());
      const p = s.progress;
      const running =
        p.status === 'active' &&
        p.terminationReason === null &&
        p.reward === null &&
        p.isCorrect === null &&
        p.breakdown === null;
      const where = [s.episodeId, s.prevEventCount];
      return [
        {
          sql: running ? UPDATE_RUNNING : UPDATE_PROGRESS,
          args: running
            ? [now, p.turn, p.hiddenGoal, p.eventCount, s.addedBytes, ...where]
            : [now, p.turn, p.status, p.terminationReason, p.reward, p.isCorrect, p.breakdown, p.hiddenGoal]
                .concat([p.eventCount, s.addedBytes])
                .concat(where),
          expect: { changes: 1, error: () => new StaleEpisodeWrite(s.episodeId) },
        },
        ...actions(s.episodeId, [s.action], now),
        ...events(s.episodeId, s.events),
      ];
    },

    /**
     * A stored episode's events and actions copied to a new episode row inside the store (bench
     * seeding writes 100,000 episodes from a few hundred).
     */
    copyLog(from: string, to: EpisodeInsert): Stmt[] {
      return [
        {
          sql: `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
            SELECT ?, "seq", "turn", "kind", "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"`,
          args: [to.id, from],
        },
        {
          sql: `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
            SELECT ?, "seq", "turn", "format", "raw", ? FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"`,
          args: [to.id, db.timestamp(to.createdAt ?? new Date()), from],
        },
      ];
    },

    /** The LLM customer's rewrite of one customer message (issue 9 item 8). */
    rewrite(r: CustomerRewriteRow & { episodeId: string }): Stmt {
      return {
        sql: `INSERT INTO "CustomerRewrite" ("episodeId","turn","template","text","by","fallback","record")
          VALUES (?,?,?,?,?,?,?)`,
        args: [r.episodeId, r.turn, r.template, r.text, r.by, r.fallback, r.record],
      };
    },
  };
}

export type EpisodeStatements = ReturnType<typeof episodeStatements>;

// ---- The search index, caught up before every query ----
// Writers do not index: an index write per step inside the step's transaction cost ~2 ms (a
// trigger) and FTS5 made a tiny segment per commit. Instead every list or search first indexes
// what was committed since the last catch-up, so a query sees every acknowledged step.
// SQLite: "EpisodeTextIndexed"."upTo" is the highest EpisodeEvent id indexed (ids only grow, one
// writer at a time); the events above it go into the FTS5 table EpisodeText (rowid = event id),
// EpisodeTextOwner and Episode.toolCalls. PostgreSQL: a trigger queues each new event's id
// (EpisodeSearchPending) and counts tool calls; the queue is turned into tsvectors here
// (server/inspector/pg-search.ts makes the words, as SQLite's tokenizer does).

const TEXT_KINDS = `('customer_message', 'agent_message', 'tool_call')`;
/** The searchable text of a stored event: a tool call's name, arguments, result and error; a message's text. */
export const SEARCH_TEXT_SQL = `CASE "kind"
       WHEN 'tool_call' THEN
         coalesce(json_extract("payload", '$.name'), '') || ' ' || coalesce(json_extract("payload", '$.args'), '') || ' ' ||
         coalesce(json_extract("payload", '$.result'), '') || ' ' || coalesce(json_extract("payload", '$.error'), '')
       ELSE coalesce(json_extract("payload", '$.text'), '') END`;
/** Events indexed per transaction (keeps each write lock short). */
export const INDEX_CHUNK = 2000;

/** SQLite: indexes the events with ids in (from, to] and moves the mark from `from` to `to`. */
const sqliteIndexRange = (from: number, to: number, expectMark: Stmt['expect']): Stmt[] => [
  // The mark first: a concurrent catch-up that read the same mark ends here as "moved".
  { sql: `UPDATE "EpisodeTextIndexed" SET "upTo" = ? WHERE "upTo" = ?`, args: [to, from], expect: expectMark },
  {
    sql: `INSERT INTO "EpisodeTextOwner" ("rowid", "episodeId") SELECT "id", "episodeId" FROM "EpisodeEvent"
      WHERE "id" > ? AND "id" <= ? AND "kind" IN ${TEXT_KINDS}`,
    args: [from, to],
  },
  {
    sql: `INSERT INTO "EpisodeText" (rowid, body) SELECT "id", ${SEARCH_TEXT_SQL}
      FROM "EpisodeEvent" WHERE "id" > ? AND "id" <= ? AND "kind" IN ${TEXT_KINDS}`,
    args: [from, to],
  },
  {
    sql: `UPDATE "Episode" SET "toolCalls" = "Episode"."toolCalls" + c."n"
      FROM (SELECT "episodeId", count(*) AS "n" FROM "EpisodeEvent"
            WHERE "id" > ? AND "id" <= ? AND "kind" = 'tool_call' GROUP BY "episodeId") AS c
      WHERE "Episode"."id" = c."episodeId"`,
    args: [from, to],
  },
];

/** The PostgreSQL search rows of queued events (pg-search.ts makes the words). */
export interface PgSearchRows {
  eventIds: number[];
  episodeIds: string[];
  /** each event's words with positions (a tsvector literal) */
  docs: string[];
  /** each episode's new words, without positions */
  episodeDocs: Map<string, string>;
}

const pgIndexRows = (r: PgSearchRows): Stmt[] => [
  {
    sql: `INSERT INTO "EpisodeSearch" ("eventId", "episodeId", "doc")
      SELECT i, ep, doc::tsvector FROM unnest(?::int[], ?::text[], ?::text[]) AS u(i, ep, doc)
      ON CONFLICT ("eventId") DO NOTHING`,
    args: [r.eventIds, r.episodeIds, r.docs],
  },
  // The episode's row gains the new words (`||` of two position-less vectors: their union).
  {
    sql: `INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
      SELECT ep, doc::tsvector FROM unnest(?::text[], ?::text[]) AS u(ep, doc)
      WHERE EXISTS (SELECT 1 FROM "Episode" e WHERE e."id" = ep)
      ON CONFLICT ("episodeId") DO UPDATE SET "doc" = "EpisodeSearchDoc"."doc" || EXCLUDED."doc"`,
    args: [[...r.episodeDocs.keys()], [...r.episodeDocs.values()]],
  },
  { sql: `DELETE FROM "EpisodeSearchPending" WHERE "eventId" = ANY(?::int[])`, args: [r.eventIds] },
];

/**
 * Indexes everything committed so far (in chunks of INDEX_CHUNK events, each its own
 * transaction). SQLite: a busy store (another process's writer) leaves the rest to the next
 * query; a mark another connection moved meanwhile ends this catch-up (that one indexes).
 * PostgreSQL: `words` turns queued events into search rows; drains run one at a time (an
 * advisory lock). Returns how many events were indexed.
 */
export async function catchUpSearchIndex(
  db: SqlDb,
  words: (events: Array<{ eventId: number; episodeId: string; payload: string }>) => PgSearchRows,
): Promise<number> {
  let indexed = 0;
  if (db.dialect === 'sqlite') {
    const moved = () => Object.assign(new Error('the search index moved on'), { moved: true });
    try {
      for (;;) {
        const from = (await db.get<{ upTo: number }>('SELECT "upTo" FROM "EpisodeTextIndexed"'))!.upTo;
        const end = await db.get<{ id: number }>(
          'SELECT "id" FROM "EpisodeEvent" WHERE "id" > ? ORDER BY "id" LIMIT 1 OFFSET ?',
          [from, INDEX_CHUNK - 1],
        );
        const last = (await db.get<{ id: number | null }>('SELECT max("id") AS "id" FROM "EpisodeEvent"'))!.id ?? 0;
        const to = Math.min(last, end?.id ?? last);
        if (to <= from) return indexed;
        await db.batch(sqliteIndexRange(from, to, { changes: 1, error: moved }));
        indexed += to - from;
      }
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if ((e as { moved?: boolean }).moved || /^SQLITE_(BUSY|LOCKED)/.test(code)) return indexed;
      throw e;
    }
  }
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(hashtext('ecomrlve.EpisodeSearch'))`);
      const rows = await tx.all<{ eventId: number; episodeId: string; payload: string }>(
        `SELECT p."eventId", e."episodeId", e."payload" FROM "EpisodeSearchPending" p
         JOIN "EpisodeEvent" e ON e."id" = p."eventId" ORDER BY p."eventId" LIMIT ${INDEX_CHUNK}`,
      );
      if (rows.length > 0) await tx.batch(pgIndexRows(words(rows)));
      return rows.length;
    });
    indexed += n;
    if (n < INDEX_CHUNK) return indexed;
  }
}
