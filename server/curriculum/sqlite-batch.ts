// A curriculum batch written to SQLite in ONE synchronous transaction (better-sqlite3, the rows
// module the step hot path and the trainer's writer use): the run's new state, conditional on
// the episode count the batch started from, and the batch's episodes. Nothing else runs while it
// holds the write lock, and no macrotask falls inside it (the Prisma path had to yield between
// episodes inside its transaction, so other requests ran while it held the lock; docs/curriculum.md).
// PostgreSQL keeps the Prisma path (server/curriculum/store.ts).
import type { Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { prepareEpisodeRows, sqlDateTime } from '@/server/episodes/sqlite-store/rows';
import { curriculumEpisodeRows } from './episode-row';
import type { SaveStepsArgs } from './store';
import { sqliteFile } from '@/server/db-path';
import { isSqliteBusy } from '@/server/lib/sqlite-busy';
import { openSqliteConnection } from '@/server/lib/sqlite-connection';

/** Thrown (and rolled back) when the run moved on: Prisma's "record not found" code, as the Prisma path. */
class RunMovedOn extends Error {
  code = 'P2025';
}

/** How long a batch waits for another writer's lock (between tries, the event loop is free). */
const BUSY_WAIT_MS = 30_000;
const BUSY_RETRY_MS = 20;

/**
 * The curriculum's own connection to the SQLite file at `url` (none for PostgreSQL). Busy timeout
 * 0: a batch never waits for a lock inside its synchronous call; it retries from the event loop.
 */
export function openCurriculumSqlite(url: string | undefined): Database | undefined {
  const file = url ? sqliteFile(url) : null;
  return file ? openSqliteConnection(file, { busyTimeoutMs: 0 }) : undefined;
}

/** Writes batches through `db`, a connection from `openCurriculumSqlite`. */
export function sqliteBatchWriter(db: Database) {
  const rows = prepareEpisodeRows(db);
  const updateRun = db.prepare(
    'UPDATE "CurriculumRun" SET "state" = ?, "episodeCount" = ?, "updatedAt" = ? WHERE "id" = ? AND "episodeCount" = ?',
  );
  // Ids sort in insertion order within a batch (its episodes share one createdAt; the run's
  // outcome chart reads them by createdAt, id).
  const prefix = () => `c${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;

  const write = db.transaction((args: SaveStepsArgs) => {
    const now = sqlDateTime(new Date());
    const moved = updateRun.run(JSON.stringify(args.state), args.state.episodes, now, args.runId, args.prevEpisodes);
    if (moved.changes !== 1) throw new RunMovedOn(`curriculum run ${args.runId} moved on or is gone`);
    if (!args.store) return;
    const batch = prefix();
    args.steps.forEach((step, i) => {
      const id = `${batch}${i.toString(36).padStart(3, '0')}${randomBytes(4).toString('hex')}`;
      const { episode, events, actions } = curriculumEpisodeRows(step, args);
      rows.insertEpisode({ id, createdAt: now, ...episode });
      rows.insertEvents(id, events);
      actions.forEach((a) => rows.insertAction({ episodeId: id, createdAt: now, ...a }));
    });
  });

  return {
    /** Writes the batch; a busy database is retried from the event loop for up to 30 s. */
    async saveSteps(args: SaveStepsArgs): Promise<void> {
      const until = Date.now() + BUSY_WAIT_MS;
      for (;;) {
        try {
          return write.immediate(args);
        } catch (e) {
          if (!isSqliteBusy(e) || Date.now() > until) throw e;
        }
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    },
  };
}
