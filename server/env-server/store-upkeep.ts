// Upkeep of a SQLite store that serving workers write: full-text indexing of new events and WAL
// checkpoints, done by one thread for the whole server (serve:env starts it in the primary, or
// beside the single worker) instead of inside every serving worker's event loop.
//
// Why: better-sqlite3 is synchronous, so whatever a serving worker does to the database holds its
// event loop. The indexer's catch-up (~0.25 ms of CPU per step, json_extract + FTS5 over tool
// results) and SQLite's automatic checkpoint (run by whichever commit crosses 1,000 WAL pages: it
// copies the pages back and fsyncs the database file) used to land in the middle of answering
// requests, and with two workers each ran its own indexer, taking the write lock from the other.
// Now the workers only append their commits to the WAL (wal_autocheckpoint = 0); this thread
// indexes in small chunks (the write lock is held briefly), within a CPU budget per interval, and
// checkpoints passively (a PASSIVE checkpoint never waits for or blocks the writers).
//
// Search stays exact: the inspector's queries catch up whatever is still pending before they run
// (text-index.ts, catchUpBeforeQuery). Under sustained full load the backlog grows at most by what
// the budget leaves out and is worked off when the load drops.
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import type { TextIndex } from '@/server/episodes/sqlite-store/text-index';
import { isSqliteBusy } from '@/server/lib/sqlite-busy';

const THREAD_MODULE = new URL('./store-upkeep-thread.ts', import.meta.url).href;

/** Events indexed per transaction (the write lock is held for one chunk: a few ms). */
export const UPKEEP_CHUNK = 500;
/** How often the thread looks for work. */
export const UPKEEP_INTERVAL_MS = 200;
/** CPU the indexer may use per pass (half a core at most when passes run back to back). */
export const UPKEEP_BUDGET_MS = 100;
/** Events that make a pass due at the next look; fewer wait until UPKEEP_MAX_WAIT_MS has passed. */
export const UPKEEP_MIN_EVENTS = 1000;
export const UPKEEP_MAX_WAIT_MS = 1000;

/**
 * Whether a pass is due. Small passes cost more per step: FTS5 writes a segment per
 * transaction and a checkpoint copies the same hot pages back each time (measured, seventh
 * round: index + checkpoint every ~8 steps 0.65 ms a step, every ~130 steps 0.25 ms). So a pass
 * waits for ~1,000 events (~160 steps) or a second, whichever comes first; the inspector's
 * queries still catch up whatever is pending first (search stays exact).
 */
export function upkeepDue(pendingEvents: number, msSinceLastPass: number): boolean {
  return pendingEvents >= UPKEEP_MIN_EVENTS || msSinceLastPass >= UPKEEP_MAX_WAIT_MS;
}

export interface UpkeepPass {
  indexed: number;
  /** Pages in the WAL, and how many of them are now copied back to the database file. */
  walPages: number;
  checkpointed: number;
}

/** One pass: index pending events in chunks until the budget is spent, then checkpoint the WAL. */
export function upkeepPass(db: Database, index: TextIndex, budgetMs = UPKEEP_BUDGET_MS): UpkeepPass {
  const start = performance.now();
  let indexed = 0;
  try {
    while (performance.now() - start < budgetMs) {
      const n = index.catchUpChunk(UPKEEP_CHUNK);
      indexed += n;
      if (n === 0) break;
    }
  } catch (e) {
    if (!isSqliteBusy(e)) throw e; // a writer held the lock past busy_timeout: next pass
  }
  // PASSIVE copies back what no reader still needs and never waits for the writers.
  const [wal] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
  return { indexed, walPages: Math.max(0, wal.log), checkpointed: Math.max(0, wal.checkpointed) };
}

/**
 * Starts the upkeep thread for the SQLite file. `close()` stops it after a last pass; a thread
 * that fails says so once on stderr (serving goes on; the inspector's queries still index).
 */
export function startStoreUpkeep(file: string): { close(): Promise<void> } {
  // serve:env runs TypeScript through tsx, whose loader does not reach worker threads by
  // itself: the thread loads its module through tsx's API (resolved from the working directory,
  // the repository root, as serve:env's own '@/' imports are).
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(THREAD_MODULE)}, ${JSON.stringify(import.meta.url)}))`,
    { eval: true, workerData: { file } },
  );
  worker.on('error', (e) => console.error(`store upkeep (search indexing, WAL checkpoints) stopped: ${e.message}`));
  worker.unref();
  return {
    close: async () => {
      worker.postMessage('stop');
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        setTimeout(() => void worker.terminate().then(() => resolve()), 5000).unref();
      });
    },
  };
}
