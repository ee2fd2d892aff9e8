// The recorder's writer for a SQLite store: one transaction per batch through the shared
// SQLite episode rows (server/episodes/sqlite-store/rows.ts, the same statements the web hot
// path and imports use), without Prisma's per-query compile and driver round trips, which cost
// more CPU than the engine's step under load (profiled: ~40 % of the server with persistence on).
// Search indexing runs after a batch commits, outside it: about a second later in this process
// (text-index.ts), or in the server's upkeep thread (store-upkeep.ts).

import Database from 'better-sqlite3';
import { sqliteFile } from '@/server/db-path';
import { prepareEpisodeRows, sqlDateTime } from '@/server/episodes/sqlite-store/rows';
import { backgroundIndexer, prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import type { BatchWriter, RecordOp } from './recorder';

export interface SqliteWriterOptions {
  /**
   * Search indexing and WAL checkpoints: 'inline' (default) in this process, about a second after
   * commits and at SQLite's automatic checkpoint; 'elsewhere': the server's upkeep thread does
   * both (store-upkeep.ts) and this connection only appends commits to the WAL.
   */
  upkeep?: 'inline' | 'elsewhere';
  /** synchronous pragma (default NORMAL; benches compare OFF). */
  synchronous?: 'NORMAL' | 'OFF' | 'FULL';
}

export function openSqliteWriter(url: string, options: SqliteWriterOptions = {}): BatchWriter & { close(): void } {
  const file = sqliteFile(url);
  if (!file) throw new Error(`the SQLite writer needs a file: URL, got "${url}"`);
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // WAL: one append per commit. synchronous=NORMAL keeps every commit across a process crash
  // (kill -9); only a power loss could drop the last ones (the app's setting, server/db.ts).
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  if (options.upkeep === 'elsewhere') db.pragma('wal_autocheckpoint = 0');

  // Prepared on the first write, so a store that is not migrated fails that write (the waiting
  // requests get EXECUTION_ERROR, as with Prisma) rather than the process.
  let prepared: {
    rows: ReturnType<typeof prepareEpisodeRows>;
    indexer: ReturnType<typeof backgroundIndexer> | null;
  } | null = null;
  const prepare = () => ({
    rows: prepareEpisodeRows(db),
    indexer: options.upkeep === 'elsewhere' ? null : backgroundIndexer(prepareTextIndex(db)),
  });

  const writeBatch = db.transaction((ops: RecordOp[]) => {
    const { rows } = (prepared ??= prepare());
    const now = sqlDateTime(new Date());
    for (const op of ops) {
      if (op.kind === 'create') {
        rows.insertEpisode({ id: op.id, createdAt: now, ...op.create, ...op.update });
        rows.insertEvents(op.id, op.events);
        continue;
      }
      rows.insertAction({ episodeId: op.id, createdAt: now, ...op.action });
      rows.insertEvents(op.id, op.events);
      // The worker holds the episode (no optimistic check); a missing row is an error. Trainer
      // episodes have no storage cap: storedBytes stays 0, as the Prisma writer leaves it.
      const ok = rows.updateProgress({
        id: op.id,
        updatedAt: now,
        ...op.update,
        addedBytes: 0,
        expectedEventCount: null,
      });
      if (!ok) throw new Error(`episode "${op.id}" is not in the store`);
    }
  });

  return {
    write: (ops) => {
      writeBatch(ops);
      prepared?.indexer?.touch();
    },
    close: () => {
      prepared?.indexer?.close();
      db.close();
    },
  };
}
