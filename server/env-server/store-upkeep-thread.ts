// The upkeep thread's loop (store-upkeep.ts): one connection, a pass every interval.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from '@/server/lib/sqlite-connection';
import { prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import { UPKEEP_BUDGET_MS, UPKEEP_INTERVAL_MS, upkeepPass, upkeepPlan } from './store-upkeep';

const db = openSqliteConnection((workerData as { file: string }).file, { pageCache: 'driver-default' });
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
