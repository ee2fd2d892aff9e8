// SQLite: the checkpoint after a bulk import, off the import's critical path. A bulk transaction
// of 10,000 episodes leaves ~1.3 GB in the WAL, and SQLite's automatic checkpoint copied it back
// to the database file inside the COMMIT call: ~5 s of the import (round 7). A WAL commit is
// durable once the WAL is synced, so the import is done at its commit; the copy back can happen
// after it. The bulk writer turns the automatic checkpoint off for its transaction
// (`holdCheckpoints`) and then, for a large WAL, runs a PASSIVE checkpoint on a connection of its
// own in a worker thread (better-sqlite3 is synchronous: on this thread it would hold the event
// loop). Until that thread is done this connection's automatic checkpoint stays off, so the next
// writer's commit does not start the same copy on its own thread.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteConnectionPragmas } from '@/server/lib/sqlite-connection';
import type { Sqlite } from './db';

/**
 * A WAL at least this large is checkpointed in a worker thread; a smaller one is left to SQLite's
 * automatic checkpoint at the next commit, as before (copying ≤ 64 MB back: well under a second).
 */
export const BACKGROUND_CHECKPOINT_BYTES = 64 * 1024 * 1024;

export interface CheckpointResult {
  /** frames in the WAL, and how many of them are now in the database file */
  log: number;
  checkpointed: number;
  /** the WAL file's size afterwards (0 when the pass copied every frame back and could truncate it) */
  walBytes: number;
}

// The thread's whole program: plain CommonJS, so it loads nothing through tsx (the Next.js
// server has no tsx). The driver is resolved from the project's working directory; the
// connection's pragmas are every app-server connection's (server/lib/sqlite-connection.ts).
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require('node:module').createRequire(workerData.from)('better-sqlite3');
const db = new Database(workerData.file);
try {
  for (const pragma of workerData.pragmas) db.pragma(pragma);
  const [r] = db.pragma('wal_checkpoint(PASSIVE)');
  // Everything copied back: empty the file too (nothing left to copy, so the writers wait only
  // for the truncation; a 1.3 GB WAL file would otherwise stay and every later bulk write start a thread).
  if (r.busy === 0 && r.log === r.checkpointed) db.pragma('wal_checkpoint(TRUNCATE)');
  parentPort.postMessage(r);
} finally {
  db.close();
}`;

const running = new WeakMap<Sqlite, Promise<CheckpointResult | null>>();
const last = new WeakMap<Sqlite, Promise<CheckpointResult | null>>();
const held = new WeakMap<Sqlite, number>();

/** The checkpoint after this connection's last bulk transaction (null: none was made); the bench and tests wait for it. */
export const lastCheckpoint = (sqlite: Sqlite) => last.get(sqlite) ?? Promise.resolve(null);

/** Turns this connection's automatic checkpoint off (a bulk transaction); `checkpointAfterBulk` restores it. */
export function holdCheckpoints(sqlite: Sqlite): void {
  if (!held.has(sqlite)) held.set(sqlite, sqlite.pragma('wal_autocheckpoint', { simple: true }) as number);
  sqlite.pragma('wal_autocheckpoint = 0');
}

const restore = (sqlite: Sqlite) => {
  const before = held.get(sqlite);
  held.delete(sqlite);
  if (before !== undefined && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${before}`);
};

const walBytes = (sqlite: Sqlite): number => {
  try {
    return statSync(`${sqlite.name}-wal`).size;
  } catch {
    return 0; // no WAL file (in memory, or another journal mode)
  }
};

/**
 * After the bulk transaction ended (committed or not): a large WAL is checkpointed in a worker
 * thread, and this connection's automatic checkpoint is put back when that is done (at once for a
 * small WAL). A thread that fails changes nothing stored: the WAL stays valid and the next checkpoint
 * (automatic, or the last connection's close) copies it back.
 */
export function checkpointAfterBulk(sqlite: Sqlite, backgroundFrom = BACKGROUND_CHECKPOINT_BYTES): void {
  if (running.has(sqlite)) return; // the running thread restores the setting when it ends
  const wal = !sqlite.memory && (sqlite.pragma('journal_mode', { simple: true }) as string) === 'wal';
  if (!wal || walBytes(sqlite) < backgroundFrom) {
    restore(sqlite);
    last.set(sqlite, Promise.resolve(null));
    return;
  }
  const done = new Promise<CheckpointResult | null>((resolve) => {
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { file: sqlite.name, from: `${process.cwd()}/`, pragmas: sqliteConnectionPragmas() },
    });
    let result: CheckpointResult | null = null;
    worker.on('message', (r: { log: number; checkpointed: number }) => {
      result = { log: r.log, checkpointed: r.checkpointed, walBytes: walBytes(sqlite) };
    });
    worker.on('error', (e) =>
      console.error(`the WAL checkpoint after an import failed (left to the next one): ${e.message}`),
    );
    worker.on('exit', () => {
      running.delete(sqlite);
      restore(sqlite);
      resolve(result);
    });
  });
  running.set(sqlite, done);
  last.set(sqlite, done);
}
