// The upkeep thread's loop (store-upkeep.ts): one connection, a pass every interval.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import { UPKEEP_BUDGET_MS, UPKEEP_INTERVAL_MS, upkeepPass, upkeepPlan } from './store-upkeep';

const db = new Database((workerData as { file: string }).file);
db.pragma('busy_timeout = 5000');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
let index: ReturnType<typeof prepareTextIndex> | null = null;
let warned = false;
let lastCheckpoint = performance.now();
let lastIndex = performance.now();
/** The last event id seen at the previous look. */
let seen = 0;

const pass = (force = false) => {
  // Prepared lazily: a store that is not migrated yet fails the workers' writes, not this thread.
  try {
    index ??= prepareTextIndex(db);
    const last = index.lastEvent();
    const plan = force
      ? { index: true, checkpoint: true }
      : upkeepPlan({
          pendingEvents: index.pending(),
          newEvents: last - seen,
          msSinceIndex: performance.now() - lastIndex,
          msSinceCheckpoint: performance.now() - lastCheckpoint,
        });
    seen = last;
    if (!plan.checkpoint) return;
    lastCheckpoint = performance.now();
    if (plan.index) lastIndex = lastCheckpoint;
    upkeepPass(db, index, plan.index ? UPKEEP_BUDGET_MS : 0);
    warned = false;
  } catch (e) {
    index = null;
    if (!warned) console.error(`store upkeep failed (retried every pass): ${(e as Error).message}`);
    warned = true;
  }
};
const timer = setInterval(pass, UPKEEP_INTERVAL_MS);
parentPort!.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  pass(true);
  db.close();
  parentPort!.close();
});
