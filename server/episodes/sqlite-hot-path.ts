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
import { randomBytes } from 'node:crypto';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { EpisodeStore, NewEpisodeRecord, StepRecord } from './store';
import { eventRows, jsonOrNull, prepareEpisodeRows, sqlDateTime, storedBytesOf } from './sqlite-store/rows';
import { backgroundIndexer, prepareTextIndex } from './sqlite-store/text-index';
import { sqliteFile } from '@/server/db-path';
import { openSqliteConnection } from '@/server/lib/sqlite-connection';
import { isSqliteBusy } from '@/server/lib/sqlite-busy';

/** A new episode id: time-ordered prefix, random tail (Prisma's cuid() is client-side too). */
const newId = () => `c${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;

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
export function sqliteHotPathFor(url: string | undefined, opts: HotPathOptions = {}): EpisodeHotPath | null {
  const file = url ? sqliteFile(url) : null;
  return file ? openSqliteHotPath(file, opts) : null;
}

export interface HotPathOptions {
  /** how long after a write the background search indexer runs (default BACKGROUND_DELAY_MS) */
  indexDelayMs?: number;
}

/** The Episode columns for where it stands after a start or a step. */
const progress = (rec: StepRecord | NewEpisodeRecord, eventCount: number) => ({
  turn: rec.turn,
  status: rec.status,
  terminationReason: rec.terminationReason,
  reward: rec.reward,
  isCorrect: rec.isCorrect,
  breakdown: jsonOrNull(rec.breakdown),
  hiddenGoal: JSON.stringify(rec.hiddenGoal),
  eventCount,
});

export function openSqliteHotPath(file: string, opts: HotPathOptions = {}) {
  const db = openSqliteConnection(file, { busyTimeoutMs: 0 }); // never waits for a lock: see above
  const getRow = db.prepare('SELECT * FROM "Episode" WHERE "id" = ?');
  const findStep = db.prepare('SELECT "eventEnd" FROM "EpisodeAction" WHERE "episodeId" = ? AND "stepKey" = ?');
  const rows = prepareEpisodeRows(db);
  // Search indexing runs about a second after a write, not inside it (text-index.ts).
  const indexer = backgroundIndexer(prepareTextIndex(db), opts.indexDelayMs);

  const appendStep = db.transaction((rec: StepRecord) => {
    const now = sqlDateTime(new Date());
    const eventCount = rec.prevEventCount + rec.events.length;
    const updated = rows.updateProgress({
      id: rec.episodeId,
      updatedAt: now,
      ...progress(rec, eventCount),
      addedBytes: rec.bytes,
      expectedEventCount: rec.prevEventCount,
    });
    if (!updated) throw new StaleWrite(`episode ${rec.episodeId} moved on or is gone`);
    rows.insertAction({
      episodeId: rec.episodeId,
      seq: rec.actionSeq,
      turn: rec.turnBefore,
      format: rec.action.format,
      raw: rec.action.raw,
      createdAt: now,
      stepKey: rec.stepKey,
      eventEnd: eventCount,
      actor: rec.actor,
      modelRecord: rec.modelRecord,
    });
    rows.insertEvents(rec.episodeId, eventRows(rec.events, rec.prevEventCount));
  });

  const createEpisode = db.transaction((rec: NewEpisodeRecord): string => {
    const id = newId();
    const now = sqlDateTime(new Date());
    const events = eventRows(rec.events, 0);
    const actions = rec.actions ?? [];
    rows.insertEpisode({
      id,
      createdAt: now,
      envId: rec.envId,
      d: rec.d,
      seed: rec.seed,
      axisOverrides: JSON.stringify(rec.axisOverrides),
      axes: JSON.stringify(rec.axes),
      weights: jsonOrNull(rec.weights),
      catalogId: rec.catalogId,
      player: rec.player,
      ...progress(rec, events.length),
      engineVersion: rec.engineVersion,
      journeyEnvs: jsonOrNull(rec.journeyEnvs),
      rewardRevision: rec.rewardRevision,
      capabilityHash: rec.capabilityHash,
      storedBytes: storedBytesOf(events, actions),
      parentId: rec.parentId,
      forkTurn: rec.forkTurn,
      runId: rec.runId,
      customerVoice: rec.customerVoice,
    });
    rows.insertEvents(id, events);
    actions.forEach((a, seq) => rows.insertAction({ episodeId: id, seq, turn: seq, createdAt: now, ...a }));
    return id;
  });

  return {
    getRow: (id: string): EpisodeRow | null => {
      const raw = getRow.get(id) as Record<string, unknown> | undefined;
      return raw ? toRow(raw) : null;
    },
    findStep: (episodeId: string, stepKey: string) =>
      (findStep.get(episodeId, stepKey) as { eventEnd: number | null } | undefined) ?? null,
    appendStep: (rec: StepRecord): void => {
      appendStep.immediate(rec);
      indexer.touch();
    },
    createEpisode: (rec: NewEpisodeRecord): EpisodeRow => {
      const row = toRow(getRow.get(createEpisode.immediate(rec)) as never);
      indexer.touch();
      return row;
    },
    close: () => {
      indexer.close();
      db.close();
    },
  };
}

/** The store with its four hot queries on the hot path; a busy database falls back to Prisma. */
export function withHotPath(store: EpisodeStore, hot: EpisodeHotPath | null | undefined): EpisodeStore {
  if (!hot) return store;
  const orPrisma =
    <A extends unknown[], R>(fast: (...a: A) => R, slow: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return fast(...a);
      } catch (e) {
        if (isSqliteBusy(e)) return slow(...a);
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
