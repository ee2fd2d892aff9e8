// serve:env's WAL checkpoints, off the workers' threads. SQLite's automatic checkpoint runs inside
// the commit that takes the WAL past 1,000 pages: it copies them into the database file and
// fsyncs it, on the committing worker's only thread (a synthetic writer, 20 rows of 1.2 KB per
// commit, load 7: commit p99 24.7 ms, max 100 ms, 101 of 3,000 over 10 ms; without it p99 4.5 ms,
// max 8.6 ms). With several workers the primary, which otherwise only waits, checkpoints instead,
// once a second, PASSIVE (it neither waits for nor blocks a writer); the workers turn theirs off.
// A single-process server keeps SQLite's own.
import { openSqliteConnection } from '@/server/db/sqlite-connection';

interface WalCheckpointer {
  /** One checkpoint now; true when the whole WAL is in the database file (false: busy, or frames left). */
  run(): boolean;
  stop(): void;
}

export function walCheckpointer(file: string, everyMs = 1000): WalCheckpointer {
  const db = openSqliteConnection(file, { busyTimeoutMs: 0 });
  const run = () => {
    try {
      const [r] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      return r.busy === 0 && r.checkpointed === r.log;
    } catch {
      return false; // busy (another checkpoint, a schema change): the next tick does it
    }
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    run,
    stop() {
      clearInterval(timer);
      db.close();
    },
  };
}
