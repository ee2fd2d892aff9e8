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
// indexes in small chunks (the write lock is held briefly), within a CPU budget per interval,
// when the writers idle or a backlog bound is reached (upkeepPlan), and checkpoints passively
// once a second (a PASSIVE checkpoint never waits for or blocks the writers).
//
// Search stays exact: the inspector's queries catch up whatever is still pending before they run
// (text-index.ts, catchUpBeforeQuery), at most UPKEEP_MAX_BACKLOG events plus what the budget
// leaves out under sustained full load; it is worked off when the load drops.
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
/**
 * Events left unindexed while the writers are busy before the thread indexes anyway: what an
 * inspector query may have to catch up first (~16 µs an event: ~0.3 s at most).
 */
export const UPKEEP_MAX_BACKLOG = 20_000;
/**
 * Longest a committed event waits for the index while the writers never pause (a steady trainer
 * below saturation): its text is searchable without a query's catch-up within this time.
 */
export const UPKEEP_MAX_DEFER_MS = 10_000;
/** The WAL is checkpointed (copied back and synced) at least this often (an empty one costs ~nothing). */
export const UPKEEP_CHECKPOINT_MS = 1000;

/** What the thread sees at a look. */
export interface UpkeepLook {
  /** Events committed and not yet indexed. */
  pendingEvents: number;
  /** Events committed since the previous look (0: the writers are idle). */
  newEvents: number;
  msSinceIndex: number;
  msSinceCheckpoint: number;
}

/**
 * What a look does (ninth round). Indexing waits while the writers are busy: search text is
 * indexed when a look finds no new events (the server idles), once UPKEEP_MAX_BACKLOG events
 * wait, or UPKEEP_MAX_DEFER_MS after the last pass (writers that never pause for 200 ms).
 * A saturated server thus spends no CPU on the index for bursts of up to ~3,000 steps,
 * and under sustained load indexes in large passes (FTS5 writes a segment per transaction:
 * small passes cost 2.5x more per step, seventh round). Search stays exact: the inspector's
 * queries catch up whatever is pending first. The checkpoint runs once a second, not after
 * every pass: each one copies back every page the writers touched since the last (the same
 * Episode rows and index leaves again and again under load), and a second bounds what
 * `--durability process` can lose on a power loss, as before.
 */
export function upkeepPlan(look: UpkeepLook): { index: boolean; checkpoint: boolean } {
  const index =
    look.pendingEvents > 0 &&
    (look.newEvents <= 0 || look.pendingEvents >= UPKEEP_MAX_BACKLOG || look.msSinceIndex >= UPKEEP_MAX_DEFER_MS);
  return { index, checkpoint: index || look.msSinceCheckpoint >= UPKEEP_CHECKPOINT_MS };
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
