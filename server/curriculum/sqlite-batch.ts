// A curriculum batch written to SQLite in ONE synchronous transaction (better-sqlite3, the rows
// module the step hot path and the trainer's writer use): the run's new state, conditional on
// the episode count the batch started from, and the batch's episodes. Nothing else runs while it
// holds the write lock, and no macrotask falls inside it (the Prisma path had to yield between
// episodes inside its transaction, so other requests ran while it held the lock; docs/curriculum.md).
// PostgreSQL keeps the Prisma path (server/curriculum/store.ts).
import type { Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { REWARD_REVISION } from '@/server/engine/reward';
import { ENGINE_VERSION } from '@/server/engine/version';
import {
  eventRows,
  jsonOrNull,
  prepareEpisodeRows,
  sqlDateTime,
  storedBytesOf,
} from '@/server/episodes/sqlite-store/rows';
import type { SaveStepsArgs } from './store';

/** Thrown (and rolled back) when the run moved on: Prisma's "record not found" code, as the Prisma path. */
class RunMovedOn extends Error {
  code = 'P2025';
}

const isBusy = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/** How long a batch waits for another writer's lock (between tries, the event loop is free). */
const BUSY_WAIT_MS = 30_000;
const BUSY_RETRY_MS = 20;

export function sqliteBatchWriter(db: Database) {
  db.pragma('busy_timeout = 0'); // never wait inside a synchronous call: retry from the event loop
  db.pragma('foreign_keys = ON');
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
      const ep = step.episode;
      const id = `${batch}${i.toString(36).padStart(3, '0')}${randomBytes(4).toString('hex')}`;
      const events = eventRows(ep.events, 0);
      const actions = step.actions.map((a) => ({ format: 'json' as const, raw: JSON.stringify(a) }));
      rows.insertEpisode({
        id,
        createdAt: now,
        envId: step.task.envId,
        d: step.task.d,
        seed: step.seed,
        axisOverrides: '{}',
        axes: JSON.stringify(ep.axes),
        weights: null,
        catalogId: args.catalogId,
        player: args.player,
        turn: ep.turn,
        status: ep.done ? 'done' : 'active',
        terminationReason: ep.termination,
        reward: ep.breakdown ? ep.breakdown.total : null,
        isCorrect: ep.breakdown ? ep.breakdown.isCorrect : null,
        breakdown: jsonOrNull(ep.breakdown),
        hiddenGoal: JSON.stringify(ep.hiddenGoal),
        eventCount: events.length,
        engineVersion: ENGINE_VERSION,
        rewardRevision: REWARD_REVISION,
        journeyEnvs: jsonOrNull(ep.journeyEnvs),
        storedBytes: storedBytesOf(events, actions),
        curriculumRunId: args.runId,
      });
      rows.insertEvents(id, events);
      // Each step() call took one structured action at turn = index (turns start at 0 before the first step).
      actions.forEach((a, seq) => rows.insertAction({ episodeId: id, seq, turn: seq, createdAt: now, ...a }));
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
          if (!isBusy(e) || Date.now() > until) throw e;
        }
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    },
  };
}
