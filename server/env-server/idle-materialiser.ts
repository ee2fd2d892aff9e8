// Materialises trainer episodes' events when this worker's recorder is idle (materialise.ts):
// the recorder stores per step only the action and the row's progress, and a reader would
// otherwise pay the whole backlog's replay. It runs in the serving worker because the replay
// needs the engine and this worker's catalog (the upkeep thread has neither); it takes a few
// episodes at a time between looks, and stops as soon as a reset or step is enqueued, so a
// trainer that comes back waits at most one chunk (~32 episodes' replays, a few ms).
// "Idle" is either no request since the last look, or an event loop busy less than half of it:
// a training loop waits on its model most of the time, so its requests never stop for 200 ms,
// but they leave the worker mostly idle; only a saturated worker lets the backlog grow.
// Since the eleventh round it first writes out the finished episodes' logs this worker still
// holds (finished-logs.ts: no replay, every worker its own), then replays what is left (one
// worker of a server: `replay`), passing over the episodes this worker is still playing (their
// logs will come from memory when they end; a reader that wants them sooner replays them).
import { performance } from 'node:perf_hooks';
import { materialiseEvents, storeEventLogs, type EventStoreDb } from '@/server/episodes/materialise';
import type { Catalog } from '@/server/engine';
import { logRows, type FinishedLog, type FinishedLogs } from './finished-logs';

/** Writes finished episodes' logs out (storeEventLogs), on this thread or the SQLite writer's. */
export type LogStore = (logs: FinishedLog[]) => Promise<unknown>;

/** How often the worker looks whether its recorder was idle since the last look. */
export const IDLE_LOOK_MS = 200;
/** Below this share of the last look spent busy, the worker counts as idle though requests came. */
export const IDLE_UTILISATION = 0.5;
/** Episodes replayed and stored per chunk. */
export const IDLE_CHUNK = 32;
/** After a failure (logged), the wait before trying again. */
const BACKOFF_MS = 10_000;

export interface IdleMaterialiser {
  /** Stops looking; resolves once a chunk in progress has committed and the queued logs are written. */
  stop(): Promise<void>;
}

export function startIdleMaterialiser(opts: {
  db: EventStoreDb;
  catalog: Catalog;
  /** A count that moves with every reset and step the recorder is given. */
  activity: () => number;
  /** The event loop's busy share since the last call (0–1); node's eventLoopUtilization by default. */
  utilisation?: () => number;
  lookMs?: number;
  chunk?: number;
  /** Finished episodes' logs this worker holds, written first (no replay). */
  logs?: FinishedLogs | null;
  /**
   * Where the logs are written: by default storeEventLogs on `db`, on this thread; serve:env's
   * SQLite writer thread inserts them instead (the rows built here, one connection per worker).
   */
  storeLogs?: LogStore;
  /** Replay the other waiting episodes too (default true; one worker of a server does). */
  replay?: boolean;
  /** Whether this worker is playing the episode (not replayed: its log comes when it ends). */
  held?: (id: string) => boolean;
}): IdleMaterialiser {
  const { db, catalog, activity, utilisation = eventLoopShare(), lookMs = IDLE_LOOK_MS, chunk = IDLE_CHUNK } = opts;
  const { logs = null, replay = true, held = () => false } = opts;
  const storeLogs: LogStore = opts.storeLogs ?? ((taken) => storeEventLogs(db, taken.map(logRows)));
  let seen = activity();
  let running: Promise<void> | null = null;
  let pausedUntil = 0;
  let stopped = false;

  /** Episode ids whose log failed to replay: logged once and passed over after (a reader still tries, and says why). */
  const failed = new Set<string>();

  /** Lets requests that arrived meanwhile run; true when one did (time to stop). */
  async function interrupted(before: number): Promise<boolean> {
    await new Promise<void>((r) => setImmediate(r));
    return stopped || activity() !== before;
  }

  async function drain(): Promise<void> {
    try {
      while (logs && logs.size > 0) {
        const before = activity();
        await storeLogs(logs.take(chunk));
        if (await interrupted(before)) return;
      }
      if (!replay) return;
      let after = '';
      const skip = (id: string) => held(id) || failed.has(id);
      for (;;) {
        const before = activity();
        const done = await materialiseEvents(db, 'all pending', () => catalog, {
          limit: chunk,
          after,
          catalogId: catalog.id,
          skip,
        });
        for (const f of done.failed)
          if (!failed.has(f.id)) {
            failed.add(f.id);
            console.error(`[env-server] cannot materialise the events of ${f.id}: ${f.error}`);
          }
        // stop when a request came or nothing is left
        if ((await interrupted(before)) || done.last === null) return;
        after = done.last;
      }
    } catch (e) {
      pausedUntil = Date.now() + BACKOFF_MS;
      console.error(
        `[env-server] materialising events failed (retrying in ${BACKOFF_MS / 1000} s): ${(e as Error).message}`,
      );
    }
  }

  const timer = setInterval(() => {
    const now = activity();
    const busyShare = utilisation();
    const idle = now === seen || busyShare < IDLE_UTILISATION;
    seen = now;
    if (!idle || running || stopped || Date.now() < pausedUntil) return;
    if (!replay && !logs?.size) return;
    running = drain().finally(() => (running = null));
  }, lookMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      // A graceful stop writes the logs still queued (a crash leaves them to the replay).
      try {
        while (logs && logs.size > 0) await storeLogs(logs.take(chunk));
      } catch (e) {
        console.error(`[env-server] the finished episodes' logs were not written: ${(e as Error).message}`);
      }
    },
  };
}

/** The event loop's busy share between calls. */
function eventLoopShare(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}
