// The recorder's writer for a SQLite store: one transaction per batch through the shared
// SQLite episode rows (server/episodes/sqlite-store/rows.ts, the same statements the web hot
// path and imports use), without Prisma's per-query compile and driver round trips, which cost
// more CPU than the engine's step under load (profiled: ~40 % of the server with persistence on).
// Search indexing runs after a batch commits, outside it: about a second later in this process
// (text-index.ts), or in the server's upkeep thread (store-upkeep.ts).

import { Worker } from 'node:worker_threads';
import { sqliteFile } from '@/server/db-path';
import { openSqliteConnection } from '@/server/lib/sqlite-connection';
import { prepareEpisodeRows, sqlDateTime } from '@/server/episodes/sqlite-store/rows';
import { backgroundIndexer, prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import { storeEventLogs, type EventStoreDb } from '@/server/episodes/event-log-store';
import { sqliteInspectorDb } from '@/server/inspector/db';
import type { EventRow } from '@/server/episodes/sqlite-store/rows';
import { logRows, type FinishedLog } from './finished-logs';
import type { BatchWriter, RecordOp, StepRowUpdate } from './recorder';

/** Finished episodes' logs written out: how many episodes and events were stored. */
export type LogsStored = { episodes: number; events: number };
/** A finished episode's rows, built (logRows) and ready to insert. */
export type LogRows = { id: string; rows: EventRow[] };

/**
 * A step after which the episode runs on: its status, outcome and breakdown are still what the
 * reset wrote (they change only when it ends), so only turn, event count and goal are written.
 */
const stillRunning = (u: StepRowUpdate) =>
  u.status === 'active' &&
  u.terminationReason === null &&
  u.reward === null &&
  u.isCorrect === null &&
  u.breakdown === null;

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

export function openSqliteWriter(
  url: string,
  options: SqliteWriterOptions = {},
): BatchWriter & {
  write(ops: RecordOp[]): void;
  /** Writes finished episodes' logs (storeEventLogs) on this connection (rows built by logRows). */
  storeLogs(logs: readonly FinishedLog[]): Promise<LogsStored>;
  /** The same with the rows already built (what the writer thread is handed). */
  storeLogRows(logs: readonly LogRows[]): Promise<LogsStored>;
  close(): void;
} {
  const file = sqliteFile(url);
  if (!file) throw new Error(`the SQLite writer needs a file: URL, got "${url}"`);
  // WAL, synchronous NORMAL (or FULL with --durability power), the driver's 16 MB page cache:
  // the trainer's write path (server/lib/sqlite-connection.ts, docs/security.md).
  const db = openSqliteConnection(file, { pageCache: 'driver-default', synchronous: options.synchronous });
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
      const u = op.update;
      const ok = stillRunning(u)
        ? rows.updateRunning({
            id: op.id,
            updatedAt: now,
            turn: u.turn,
            eventCount: u.eventCount,
            hiddenGoal: u.hiddenGoal,
          })
        : rows.updateProgress({ id: op.id, updatedAt: now, ...u, addedBytes: 0, expectedEventCount: null });
      if (!ok) throw new Error(`episode "${op.id}" is not in the store`);
    }
  });

  // The idle writes of finished logs go through this same connection (round 12): no second
  // connection of the worker waits for this one's write lock, or makes it wait.
  let logStore: EventStoreDb | null = null;
  const storeLogRows = async (logs: readonly LogRows[]) => {
    const done = await storeEventLogs((logStore ??= sqliteInspectorDb(db)), logs);
    if (done.events > 0) prepared?.indexer?.touch();
    return done;
  };

  return {
    write: (ops) => {
      // A batch inside the logs' transaction would become a savepoint, committed only with it:
      // its steps would be acknowledged before they are durable. Fail instead (the recorder
      // then fails the steps rather than acknowledging them).
      if (db.inTransaction) throw new Error('the SQLite writer is inside another transaction');
      writeBatch(ops);
      prepared?.indexer?.touch();
    },
    storeLogs: (logs) => storeLogRows(logs.map(logRows)),
    storeLogRows,
    close: () => {
      prepared?.indexer?.close();
      db.close();
    },
  };
}

/** The writer thread's answer to one batch. */
export type WriterThreadAnswer =
  { id: number; ok: true; stored?: LogsStored } | { id: number; ok: false; message: string; code: string | null };

const THREAD_MODULE = new URL('./sqlite-writer-thread.ts', import.meta.url).href;

/**
 * The same writer on a thread of its own: the serving event loop hands each batch over
 * (postMessage: the rows are already strings, copied once) and goes on answering other requests
 * while the thread runs the transaction; the batch's promise resolves once it has committed, so
 * the recorder still acknowledges only committed steps. What arrives meanwhile forms the next
 * batch. A failed transaction rejects with the thread's error and its SQLite code (a unique
 * violation still tells the recorder a stale worker collided); a thread that stops fails every
 * write after it.
 */
export function openSqliteWriterThread(
  url: string,
  options: SqliteWriterOptions = {},
): BatchWriter & { storeLogs(logs: readonly FinishedLog[]): Promise<LogsStored>; close(): Promise<void> } {
  // serve:env runs TypeScript through tsx, whose loader does not reach worker threads by itself
  // (as in store-upkeep.ts).
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(THREAD_MODULE)}, ${JSON.stringify(import.meta.url)}))`,
    { eval: true, workerData: { url, options } },
  );
  const waiting = new Map<number, { resolve: (stored?: LogsStored) => void; reject: (e: Error) => void }>();
  let next = 0;
  let stopped: Error | null = null;
  const stop = (e: Error) => {
    stopped ??= e;
    for (const w of waiting.values()) w.reject(stopped);
    waiting.clear();
  };
  worker.on('message', (a: WriterThreadAnswer) => {
    const w = waiting.get(a.id);
    waiting.delete(a.id);
    if (a.ok) return w?.resolve(a.stored);
    w?.reject(Object.assign(new Error(a.message), { code: a.code ?? undefined }));
  });
  worker.on('error', (e) => stop(new Error(`the SQLite writer thread stopped: ${e.message}`)));
  worker.on('exit', (code) => stop(new Error(`the SQLite writer thread exited (${code})`)));
  const post = (message: { ops: RecordOp[] } | { logRows: readonly LogRows[] }) =>
    new Promise<LogsStored | undefined>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  return {
    write: async (ops) => void (await post({ ops })),
    // The rows are built here and handed over as strings (a copy); the inserts run on the thread.
    // Cloning the event objects instead and building the rows there took less of this thread
    // (39 against ~100 ms per 1,000 steps) but ~50 ms more CPU in all.
    storeLogs: async (logs) => (await post({ logRows: logs.map(logRows) }))!,
    close: () =>
      new Promise<void>((resolve) => {
        if (stopped) return resolve();
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      }),
  };
}
