// Writing events whose rows are known (no replay): the SQL shared by the replay in
// materialise.ts and by finished episodes' logs a worker still holds (storeEventLogs,
// env-server/finished-logs.ts). Kept apart from the replay so that serve:env's SQLite writer
// thread, which writes those logs, loads no engine.
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { InspectorDb } from '@/server/inspector/db';
import type { EventRow } from './sqlite-store/rows';

/** The SQL this needs: the inspector's connection (SQLite or PostgreSQL, InspectorDb) or Prisma's (prismaSqlDb). */
export interface EventStoreDb {
  dialect: InspectorDb['dialect'];
  all<T>(sql: string, args?: unknown[]): Promise<T[]>;
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, args?: unknown[]): Promise<number>;
  transaction<T>(fn: (tx: EventStoreDb) => Promise<T>): Promise<T>;
}

/** A waiting episode's row: its config (for a replay) and how far its events are stored. */
export type PendingRow = Pick<
  EpisodeRow,
  'id' | 'envId' | 'd' | 'seed' | 'axisOverrides' | 'weights' | 'journeyEnvs' | 'catalogId' | 'engineVersion'
> & { eventCount: number; eventsStored: number };

/** An episode whose events wait (the partial index Episode_events_pending_idx lists exactly these). */
export const EVENTS_PENDING = `"eventsStored" < "eventCount"`;
const PENDING_COLUMNS = `"id","envId","d","seed","axisOverrides","weights","journeyEnvs","catalogId","engineVersion","eventCount","eventsStored"`;

/** Rows per multi-row event insert (5 parameters each). */
const EVENTS_PER_INSERT = 64;
/** Ids per `IN (…)` list. */
export const IDS_PER_QUERY = 500;

/** Inserts event rows; rows already there (same episode and seq) are left as they are. */
export async function insertEvents(tx: EventStoreDb, episodeId: string, rows: readonly EventRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += EVENTS_PER_INSERT) {
    const chunk = rows.slice(at, at + EVENTS_PER_INSERT);
    const args: unknown[] = [];
    for (const r of chunk) args.push(episodeId, r.seq, r.turn, r.kind, r.payload);
    await tx.run(
      `INSERT INTO "EpisodeEvent" ("episodeId","seq","turn","kind","payload") VALUES ${chunk.map(() => '(?,?,?,?,?)').join(',')}
       ON CONFLICT ("episodeId","seq") DO NOTHING`,
      args,
    );
  }
}

/** Rows whose events wait: the given ids, in id order, or a page of 'all pending' after `after`. */
export async function pendingRows(
  db: EventStoreDb,
  which: readonly string[] | 'all pending',
  limit: number,
  after: string,
  catalogId: string | null = null,
) {
  if (which === 'all pending')
    return catalogId === null
      ? db.all<PendingRow>(
          `SELECT ${PENDING_COLUMNS} FROM "Episode" WHERE ${EVENTS_PENDING} AND "id" > ? ORDER BY "id" LIMIT ?`,
          [after, limit],
        )
      : db.all<PendingRow>(
          `SELECT ${PENDING_COLUMNS} FROM "Episode" WHERE ${EVENTS_PENDING} AND "catalogId" = ? AND "id" > ? ORDER BY "id" LIMIT ?`,
          [catalogId, after, limit],
        );
  // in id order, as every writer of events goes (PostgreSQL's row locks then never cross)
  const rows: PendingRow[] = [];
  const ids = [...new Set(which)].sort();
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    const part = ids.slice(at, at + IDS_PER_QUERY);
    rows.push(
      ...(await db.all<PendingRow>(
        `SELECT ${PENDING_COLUMNS} FROM "Episode" WHERE "id" IN (${part.map(() => '?').join(',')}) AND ${EVENTS_PENDING} ORDER BY "id"`,
        part,
      )),
    );
  }
  return rows;
}

/**
 * Stores finished episodes' event logs that a worker still held (env-server/finished-logs.ts):
 * the rows as the eager path writes them, no replay. In one transaction, in id order (two
 * writers of the same episodes then take PostgreSQL's row locks in the same order). A log is
 * written only while its row still waits and its event count is the log's length: the episode
 * is over, so anything else means the row is not what this worker played (left to the replay,
 * which checks and reports). Events a reader stored meanwhile are skipped (the watermark) or
 * collide harmlessly (same bytes, ON CONFLICT DO NOTHING); the watermark only moves forward.
 */
export async function storeEventLogs(
  db: EventStoreDb,
  logs: ReadonlyArray<{ id: string; rows: readonly EventRow[] }>,
): Promise<{ episodes: number; events: number }> {
  const done = { episodes: 0, events: 0 };
  if (logs.length === 0) return done;
  const logOf = new Map(logs.map((l) => [l.id, l]));
  await db.transaction(async (tx) => {
    for (const row of await pendingRows(tx, [...logOf.keys()], 0, '')) {
      const log = logOf.get(row.id)!;
      if (Number(row.eventCount) !== log.rows.length) continue;
      const from = Number(row.eventsStored);
      await insertEvents(tx, log.id, log.rows.slice(from));
      await tx.run(`UPDATE "Episode" SET "eventsStored" = ? WHERE "id" = ? AND "eventsStored" < ?`, [
        log.rows.length,
        log.id,
        log.rows.length,
      ]);
      done.episodes++;
      done.events += log.rows.length - from;
    }
  });
  return done;
}
