// The web path's hot queries on SQLite, as prepared better-sqlite3 statements.
//
// Why: through Prisma's query compiler each query cost 2–4 ms of CPU (a step made five of
// them, an episode start three); the same statements prepared once cost ~0.03 ms. Only the four
// queries every start and step makes live here (the row read, the step-key lookup, the step's
// writes, the new episode); everything else stays on Prisma. PostgreSQL (or any non-file
// DATABASE_URL) gets no hot path and keeps the Prisma store unchanged.
//
// Same file, second connection. Its writes are synchronous transactions (BEGIN IMMEDIATE …
// COMMIT in one call), so it never holds a lock while other code runs. It never waits for a
// lock either (busy_timeout 0: a wait would block the event loop while a Prisma transaction that
// holds the lock cannot finish): when the database is busy the call falls back to Prisma, which
// waits as before. Rows read here are converted to exactly what Prisma returns (a test compares).
import Database from 'better-sqlite3';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { eventRows, type EpisodeStore, type NewEpisodeRecord, type StepRecord } from './store';

/** Prisma's DateTime text in SQLite ("2026-11-30T15:04:49.823+00:00"). */
const sqlDateTime = (d: Date) => d.toISOString().replace('Z', '+00:00');
/** A new episode id: time-ordered prefix, random tail (Prisma's cuid() is client-side too). */
const newId = () => `c${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

const DATE_COLUMNS = ['createdAt', 'updatedAt', 'revealedAt'] as const;
const BOOLEAN_COLUMNS = ['isCorrect', 'goalRevealed'] as const;

function toRow(raw: Record<string, unknown>): EpisodeRow {
  const row: Record<string, unknown> = { ...raw };
  for (const c of DATE_COLUMNS) if (row[c] !== null) row[c] = new Date(row[c] as string);
  for (const c of BOOLEAN_COLUMNS) if (row[c] !== null) row[c] = row[c] === 1;
  return row as unknown as EpisodeRow;
}

/** Thrown (and rolled back) when the episode's event count moved: Prisma's "record not found" code. */
class StaleWrite extends Error {
  code = 'P2025';
}

export type EpisodeHotPath = ReturnType<typeof openSqliteHotPath>;

/** The hot path for a DATABASE_URL, or null when it is not a SQLite file. */
export function sqliteHotPathFor(url: string | undefined): EpisodeHotPath | null {
  if (!url?.startsWith('file:')) return null;
  return openSqliteHotPath(path.resolve(url.slice('file:'.length)));
}

export function openSqliteHotPath(file: string) {
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL'); // per connection; WAL is set on the file by server/db.ts
  const getRow = db.prepare('SELECT * FROM "Episode" WHERE "id" = ?');
  const findStep = db.prepare('SELECT "eventEnd" FROM "EpisodeAction" WHERE "episodeId" = ? AND "stepKey" = ?');
  const insertEvent = db.prepare(
    'INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES (?,?,?,?,?)',
  );
  const insertAction = db.prepare(
    `INSERT INTO "EpisodeAction" ("episodeId","seq","turn","format","raw","createdAt","stepKey","eventEnd","actor","modelRecord")
     VALUES (?,?,?,?,?,?,?,?,?,?)`,
  );
  const updateAfterStep = db.prepare(
    `UPDATE "Episode" SET "updatedAt" = ?, "turn" = ?, "status" = ?, "terminationReason" = ?, "reward" = ?,
       "isCorrect" = ?, "breakdown" = ?, "hiddenGoal" = ?, "eventCount" = ?, "storedBytes" = "storedBytes" + ?,
       "infraError" = NULL
     WHERE "id" = ? AND "eventCount" = ?`,
  );
  const insertEpisode = db.prepare(
    `INSERT INTO "Episode" ("id","createdAt","updatedAt","envId","d","seed","axisOverrides","axes","weights","catalogId",
       "player","turn","status","terminationReason","reward","isCorrect","breakdown","hiddenGoal","engineVersion",
       "journeyEnvs","eventCount","rewardRevision","capabilityHash","storedBytes","parentId","forkTurn","runId",
       "customerVoice")
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const bool = (b: boolean | null) => (b === null ? null : b ? 1 : 0);
  // The columns a start and a step both write, in the statements' order.
  const outcome = (rec: StepRecord | NewEpisodeRecord) => [
    rec.turn,
    rec.status,
    rec.terminationReason,
    rec.reward,
    bool(rec.isCorrect),
    json(rec.breakdown),
    JSON.stringify(rec.hiddenGoal),
  ];

  const appendStep = db.transaction((rec: StepRecord) => {
    const now = sqlDateTime(new Date());
    const eventCount = rec.prevEventCount + rec.events.length;
    const updated = updateAfterStep.run(now, ...outcome(rec), eventCount, rec.bytes, rec.episodeId, rec.prevEventCount);
    if (updated.changes !== 1) throw new StaleWrite(`episode ${rec.episodeId} moved on or is gone`);
    insertAction.run(
      rec.episodeId,
      rec.actionSeq,
      rec.turnBefore,
      rec.action.format,
      rec.action.raw,
      now,
      rec.stepKey,
      eventCount,
      rec.actor ?? null,
      rec.modelRecord ?? null,
    );
    for (const r of eventRows(rec.events, rec.prevEventCount))
      insertEvent.run(rec.episodeId, r.seq, r.turn, r.kind, r.payload);
  });

  const createEpisode = db.transaction((rec: NewEpisodeRecord): string => {
    const id = newId();
    const now = sqlDateTime(new Date());
    const rows = eventRows(rec.events, 0);
    const actions = rec.actions ?? [];
    insertEpisode.run(
      id,
      now,
      now,
      rec.envId,
      rec.d,
      rec.seed,
      JSON.stringify(rec.axisOverrides),
      JSON.stringify(rec.axes),
      json(rec.weights),
      rec.catalogId,
      rec.player,
      ...outcome(rec),
      rec.engineVersion,
      json(rec.journeyEnvs),
      rows.length,
      rec.rewardRevision,
      rec.capabilityHash,
      rows.reduce((n, r) => n + r.payload.length, 0) + actions.reduce((n, a) => n + a.raw.length, 0),
      rec.parentId ?? null,
      rec.forkTurn ?? null,
      rec.runId ?? null,
      rec.customerVoice ?? null,
    );
    for (const r of rows) insertEvent.run(id, r.seq, r.turn, r.kind, r.payload);
    actions.forEach((a, seq) =>
      insertAction.run(id, seq, seq, a.format, a.raw, now, null, a.eventEnd, a.actor, a.modelRecord),
    );
    return id;
  });

  return {
    getRow: (id: string): EpisodeRow | null => {
      const raw = getRow.get(id) as Record<string, unknown> | undefined;
      return raw ? toRow(raw) : null;
    },
    findStep: (episodeId: string, stepKey: string) =>
      (findStep.get(episodeId, stepKey) as { eventEnd: number | null } | undefined) ?? null,
    appendStep: (rec: StepRecord): void => appendStep.immediate(rec),
    createEpisode: (rec: NewEpisodeRecord): EpisodeRow => toRow(getRow.get(createEpisode.immediate(rec)) as never),
    close: () => db.close(),
  };
}

const isBusy = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/** The store with its four hot queries on the hot path; a busy database falls back to Prisma. */
export function withHotPath(store: EpisodeStore, hot: EpisodeHotPath | null | undefined): EpisodeStore {
  if (!hot) return store;
  const orPrisma =
    <A extends unknown[], R>(fast: (...a: A) => R, slow: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return fast(...a);
      } catch (e) {
        if (isBusy(e)) return slow(...a);
        throw e;
      }
    };
  return {
    ...store,
    getRow: orPrisma(hot.getRow, store.getRow),
    findStep: orPrisma(hot.findStep, store.findStep),
    appendStep: orPrisma(hot.appendStep, store.appendStep),
    createEpisode: orPrisma(hot.createEpisode, store.createEpisode),
  };
}
