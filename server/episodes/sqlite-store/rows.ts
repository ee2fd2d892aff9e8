// The one place that writes episodes into SQLite outside Prisma: prepared statements for the
// Episode row, its events and its actions. Three callers use it, each inside its own
// transaction: the web hot path (one step per transaction, optimistic check on the event
// count), the trainer's group-commit writer (many resets and steps per transaction) and
// whole-episode imports / bench seeding (many episodes per transaction). What differs between
// them is an explicit field or option here, not a different column list.
//
// The rows are exactly the ones Prisma writes (DateTime as Prisma's SQLite text, booleans as
// 0/1, JSON as TEXT), so Prisma reads them back unchanged. Full-text indexing and the
// tool-call count are not done here: text-index.ts does them after the commit.
import type { Database, Statement } from 'better-sqlite3';
import type { EpisodeEvent } from '@/server/engine/types';

/** Prisma's DateTime text in SQLite ("2026-11-30T15:04:49.823+00:00"). */
export const sqlDateTime = (d: Date) => d.toISOString().replace('Z', '+00:00');

/** JSON text of a nullable value (null stays NULL). */
export const jsonOrNull = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** An event as stored: the engine's event verbatim as JSON, with its position. */
export interface EventRow {
  seq: number;
  turn: number;
  kind: string;
  payload: string;
}

/** A reward breakdown and its JSON text, already serialised for the Episode row. */
export interface SerialisedBreakdown {
  breakdown: unknown;
  json: string;
}

/**
 * An event's stored text: JSON.stringify(e). The reward event ({kind, turn, breakdown}, in that
 * key order) of a breakdown the caller already serialised for the Episode row is spliced around
 * that text instead (the same bytes; ~3 KB the serving thread would serialise twice).
 */
const eventPayload = (e: EpisodeEvent, known: SerialisedBreakdown | null): string =>
  e.kind === 'reward' && known !== null && e.breakdown === known.breakdown && Object.keys(e).length === 3
    ? `{"kind":"reward","turn":${JSON.stringify(e.turn)},"breakdown":${known.json}}`
    : JSON.stringify(e);

/** Event rows as stored, numbered from `firstSeq` (every writer serialises events here). */
export const eventRows = (
  events: readonly EpisodeEvent[],
  firstSeq: number,
  known: SerialisedBreakdown | null = null,
): EventRow[] =>
  events.map((e, i) => ({ seq: firstSeq + i, turn: e.turn, kind: e.kind, payload: eventPayload(e, known) }));

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

/**
 * A new Episode row. Required: what every writer knows. Optional: what only some writers have
 * (the schema's default applies when left out, as with Prisma).
 */
export interface EpisodeRowInsert extends ProgressColumns {
  id: string;
  createdAt: string;
  envId: string;
  d: number;
  seed: number;
  axisOverrides: string;
  axes: string;
  weights: string | null;
  catalogId: string;
  player: string;
  /** engine rule and reward revision of the player (imports of old files leave them at 1) */
  engineVersion?: number;
  rewardRevision?: number;
  journeyEnvs?: string | null;
  /** the web seat's capability hash and storage accounting */
  capabilityHash?: string | null;
  storedBytes?: number;
  /** forks and batch runs (issue 9) */
  parentId?: string | null;
  forkTurn?: number | null;
  runId?: string | null;
  customerVoice?: string | null;
  /** curriculum runs' batches (server/curriculum/sqlite-batch.ts) */
  curriculumRunId?: string | null;
  /** inspector columns (imports) */
  goalRevealed?: boolean;
  /** tool calls among the events: only a writer that indexes its own events sets it (text-index.ts indexWritten) */
  toolCalls?: number;
  origin?: string;
  runLabel?: string | null;
  recorded?: string | null;
  rescored?: string | null;
  prompts?: string | null;
  /** events stored so far when the writer defers them (materialise.ts); null/left out: all */
  eventsStored?: number | null;
}

export interface ActionRowInsert {
  episodeId: string;
  seq: number;
  turn: number;
  format: 'text' | 'json';
  raw: string;
  createdAt: string;
  /** idempotency key and the event count after the step (web seat and trainer steps) */
  stepKey?: string | null;
  eventEnd?: number | null;
  /** who acted and a model's turn record (web) */
  actor?: string | null;
  modelRecord?: string | null;
}

export interface ProgressUpdate extends Omit<ProgressColumns, 'hiddenGoal'> {
  /** null: unchanged since the last write (the trainer's writer skips rewriting a ~35 KB goal). */
  hiddenGoal: string | null;
  id: string;
  updatedAt: string;
  /** bytes the step added to the episode's stored size */
  addedBytes: number;
  /**
   * Optimistic concurrency: update only while the stored event count is this (the web path,
   * whose readers may race); null = the caller holds the only copy (the trainer's writer).
   */
  expectedEventCount: number | null;
}

/** A running episode's step: what changes while status, reward and the rest stay as created. */
export interface RunningUpdate {
  id: string;
  updatedAt: string;
  turn: number;
  eventCount: number;
  /** null: unchanged */
  hiddenGoal: string | null;
}

const EPISODE_COLUMNS = [
  'id',
  'createdAt',
  'updatedAt',
  'envId',
  'd',
  'seed',
  'axisOverrides',
  'axes',
  'weights',
  'catalogId',
  'player',
  'turn',
  'status',
  'terminationReason',
  'reward',
  'isCorrect',
  'breakdown',
  'hiddenGoal',
  'eventCount',
  'engineVersion',
  'rewardRevision',
  'journeyEnvs',
  'capabilityHash',
  'storedBytes',
  'parentId',
  'forkTurn',
  'runId',
  'customerVoice',
  'curriculumRunId',
  'goalRevealed',
  'toolCalls',
  'origin',
  'runLabel',
  'recorded',
  'rescored',
  'prompts',
  'eventsStored',
] as const;

/** Every column a step can change (the web hot path, and a trainer episode's last step). */
export const UPDATE_PROGRESS_SQL = `UPDATE "Episode" SET "updatedAt" = @updatedAt, "turn" = @turn, "status" = @status,
       "terminationReason" = @terminationReason, "reward" = @reward, "isCorrect" = @isCorrect,
       "breakdown" = @breakdown, "hiddenGoal" = coalesce(@hiddenGoal, "hiddenGoal"), "eventCount" = @eventCount,
       "storedBytes" = "storedBytes" + @addedBytes, "infraError" = NULL
     WHERE "id" = @id AND (@expectedEventCount IS NULL OR "eventCount" = @expectedEventCount)`;

// A step that leaves the episode running changes only where it stands. SQLite rewrites an
// index on UPDATE only when the SET list names one of its columns, so this statement leaves
// the search-filter index alone (status, reward, … are what the row was created with until
// the episode ends); the inspector's covering index still follows the turn.
export const UPDATE_RUNNING_SQL = `UPDATE "Episode" SET "updatedAt" = @updatedAt, "turn" = @turn, "eventCount" = @eventCount,
       "hiddenGoal" = coalesce(@hiddenGoal, "hiddenGoal")
     WHERE "id" = @id AND "status" = 'active'`;

/** Rows per multi-row event insert (5 parameters each; SQLite allows 32,766). */
const EVENTS_PER_INSERT = 64;

const bool = (b: boolean | null) => (b === null ? null : b ? 1 : 0);

/** Prepared statements over one connection; the caller owns the transaction around them. */
export function prepareEpisodeRows(db: Database) {
  const insertEpisode = db.prepare(
    `INSERT INTO "Episode" (${EPISODE_COLUMNS.map((c) => `"${c}"`).join(',')}) VALUES (${EPISODE_COLUMNS.map((c) => `@${c}`).join(',')})`,
  );
  // Events go in EVENTS_PER_INSERT rows to a statement (fewer statements for a bulk import's
  // ~400,000 events); the statement for each row count is prepared when first used.
  const insertEventsSql = new Map<number, Statement>();
  const insertEventsOf = (n: number) => {
    let st = insertEventsSql.get(n);
    if (!st)
      insertEventsSql.set(
        n,
        (st = db.prepare(
          `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES ${Array(n).fill('(?,?,?,?,?)').join(',')}`,
        )),
      );
    return st;
  };
  const insertAction = db.prepare(
    `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt","stepKey","eventEnd","actor","modelRecord")
     VALUES (?,?,?,?,?,?,?,?,?,?)`,
  );
  const updateProgress = db.prepare(UPDATE_PROGRESS_SQL);

  const updateRunning = db.prepare(UPDATE_RUNNING_SQL);

  const copyEvents = db.prepare(
    `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload")
     SELECT @to, "seq", "turn", "kind", "payload" FROM "EpisodeEvent" WHERE "episodeId" = @from ORDER BY "seq"`,
  );
  const copyActions = db.prepare(
    `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt")
     SELECT @to, "seq", "turn", "format", "raw", @createdAt FROM "EpisodeAction" WHERE "episodeId" = @from ORDER BY "seq"`,
  );

  return {
    /**
     * Copies a stored episode's events and actions to another episode row, inside SQLite
     * (no JSON round trip): bench seeding writes 100,000 episodes from a few hundred.
     * Returns how many rows it copied.
     */
    copyLog(from: string, to: string, createdAt: string): { events: number; actions: number } {
      const events = copyEvents.run({ from, to }).changes;
      return { events, actions: copyActions.run({ from, to, createdAt }).changes };
    },
    insertEpisode(r: EpisodeRowInsert): void {
      insertEpisode.run({
        ...r,
        updatedAt: r.createdAt,
        isCorrect: bool(r.isCorrect),
        engineVersion: r.engineVersion ?? 1,
        rewardRevision: r.rewardRevision ?? 1,
        journeyEnvs: r.journeyEnvs ?? null,
        capabilityHash: r.capabilityHash ?? null,
        storedBytes: r.storedBytes ?? 0,
        parentId: r.parentId ?? null,
        forkTurn: r.forkTurn ?? null,
        runId: r.runId ?? null,
        customerVoice: r.customerVoice ?? null,
        curriculumRunId: r.curriculumRunId ?? null,
        goalRevealed: r.goalRevealed ? 1 : 0,
        toolCalls: r.toolCalls ?? 0,
        origin: r.origin ?? 'engine',
        runLabel: r.runLabel ?? null,
        recorded: r.recorded ?? null,
        rescored: r.rescored ?? null,
        prompts: r.prompts ?? null,
        eventsStored: r.eventsStored ?? null,
      });
    },
    /** Returns the new events' ids, in order. */
    insertEvents(episodeId: string, rows: readonly EventRow[]): number[] {
      const ids: number[] = [];
      for (let at = 0; at < rows.length; at += EVENTS_PER_INSERT) {
        const chunk = rows.slice(at, at + EVENTS_PER_INSERT);
        const args: unknown[] = [];
        for (const r of chunk) args.push(episodeId, r.seq, r.turn, r.kind, r.payload);
        // One statement's rows get consecutive ids (AUTOINCREMENT, one writer): the last one's back.
        const last = Number(insertEventsOf(chunk.length).run(...args).lastInsertRowid);
        for (let i = chunk.length - 1; i >= 0; i--) ids.push(last - i);
      }
      return ids;
    },
    insertAction(a: ActionRowInsert): void {
      insertAction.run(
        a.episodeId,
        a.seq,
        a.turn,
        a.format,
        a.raw,
        a.createdAt,
        a.stepKey ?? null,
        a.eventEnd ?? null,
        a.actor ?? null,
        a.modelRecord ?? null,
      );
    },
    /** True when the row was updated (false: gone, or its event count moved on). */
    updateProgress(u: ProgressUpdate): boolean {
      return updateProgress.run({ ...u, isCorrect: bool(u.isCorrect) }).changes === 1;
    },
    /**
     * A mid-episode step of an episode whose row only this writer updates (the trainer's group
     * commit): turn, event count and goal; false when the row is gone or no longer active.
     */
    updateRunning(u: RunningUpdate): boolean {
      return updateRunning.run(u).changes === 1;
    },
  };
}

export type EpisodeRows = ReturnType<typeof prepareEpisodeRows>;
