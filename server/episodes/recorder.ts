// The one step path to the store, for every seat: the trainer API (reset and step) and the
// episode service (playground, connected models) record each step here, through the one
// episode writer (writer.ts). Trainer episodes are tagged player = "trainer:<run>".
// Group commit (GroupCommit below, one per store per process): every write enqueues its
// statements; one transaction at a time writes everything queued, and each caller's promise
// resolves only once the transaction holding its rows has committed. Callers acknowledge after
// that promise: acknowledged = durable (and searchable), without one transaction per step. A
// failed batch is written again one operation at a time, so one bad operation fails alone.

import { ENGINE_VERSION, REWARD_REVISION, type StepResult } from '@/server/engine';
import type { SqlDb, Stmt } from '@/server/db/sql';
import {
  episodeStatements,
  eventRows,
  isUniqueViolation,
  StaleEpisodeWrite,
  storedBytesOf,
  type EpisodeInsert,
  type ProgressColumns,
  type StepWrite,
} from './writer';
import { goalWithoutDataJson } from './stored-goal';
import type { LiveEpisode } from './live';

/** What one write adds to the store: its statements, and what its caller gets if it fails alone. */
interface RecordOp {
  stmts: Stmt[];
  failure(e: unknown): Error;
}

const recorders = new WeakMap<SqlDb, Recorder>();
/**
 * The store's recorder in this process: one group commit per store per process, which every
 * episode write joins (the episode service's, the trainer API's, store.ts's).
 */
export function recorderOf(db: SqlDb): Recorder {
  let r = recorders.get(db);
  if (!r) recorders.set(db, (r = new Recorder(db)));
  return r;
}

/** Commits these statements in the store's next group commit; a failure rejects with the store's own error. */
export const commitEpisodeWrite = (db: SqlDb, stmts: Stmt[]): Promise<void> => recorderOf(db).commit(stmts);

function recordError(e: unknown): Error {
  const cause =
    (e as Error).message
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .at(-1)
      ?.trim() ?? 'unknown error';
  return new Error(`could not record the episode: ${cause}`);
}

/**
 * The step's rows collide with rows already stored (same action seq or step key, or the row's
 * event count moved on): another worker stepped this episode meanwhile, so this worker's copy
 * was stale. Nothing was written; the caller rebuilds the episode from the store and tries again.
 */
export class StepConflictError extends Error {
  constructor(readonly episodeId: string) {
    super(`episode "${episodeId}" was stepped by another worker meanwhile`);
  }
}

/** An action as stored: text exactly as received, a structured action as its JSON. */
export const storedAction = (action: unknown): StoredActionText =>
  typeof action === 'string' ? { format: 'text', raw: action } : { format: 'json', raw: JSON.stringify(action) };

interface StoredActionText {
  format: 'text' | 'json';
  raw: string;
}

/** What a recorded step stored: the row's progress columns (hiddenGoal null: unchanged) and the bytes it added. */
export interface RecordedStep {
  progress: StepWrite['progress'];
  addedBytes: number;
}

export function trainerPlayer(run: string | null): string {
  return `trainer:${run ?? 'unnamed'}`;
}

/** What a step records besides its action and events. */
interface StepOptions {
  /** the client's idempotency key of the step */
  stepKey?: string | null;
  /** who acted: 'human', 'model:<name>', a built-in agent (provenance.ts); null = not said */
  actor?: string | null;
  /** JSON ModelTurnRecord of a model's turn (never a key) */
  modelRecord?: string | null;
  /**
   * the goal in full (JSON), for a row stored with its data; asked for only when the goal's
   * summary or slots changed (its data is fixed for the episode). Default: without its data.
   */
  fullGoal?: () => string;
}

/** The Episode row's state now, the goal without its data (stored so for trainer episodes). */
const progressNow = (live: LiveEpisode, eventCount: number): ProgressColumns => {
  const e = live.episode;
  return {
    turn: e.turn,
    status: e.done ? 'done' : 'active',
    terminationReason: e.termination,
    reward: e.breakdown?.total ?? null,
    isCorrect: e.breakdown?.isCorrect ?? null,
    breakdown: e.breakdown ? JSON.stringify(e.breakdown) : null,
    // without the goal's data (fixed for the episode; readers derive it): stored-goal.ts
    hiddenGoal: goalWithoutDataJson(e.hiddenGoal()),
    eventCount,
  };
};

export class Recorder {
  private readonly commits: GroupCommit<RecordOp>;
  private readonly conflictOr = (id: string) => (e: unknown) =>
    isUniqueViolation(e) || e instanceof StaleEpisodeWrite ? new StepConflictError(id) : recordError(e);
  private readonly writes: ReturnType<typeof episodeStatements>;
  /** Events recorded so far per live episode (Episode.events copies the whole log on each read). */
  private eventCounts = new WeakMap<LiveEpisode, number>();
  /** The hidden goal (without its data) as last enqueued per live episode: a step rewrites it only when it changed. */
  private goals = new WeakMap<LiveEpisode, string>();

  /** Callers take recorderOf(db): a second recorder of a store would be a second group commit. */
  constructor(db: SqlDb) {
    this.writes = episodeStatements(db);
    this.commits = new GroupCommit<RecordOp>(
      (ops) => db.batch(ops.flatMap((o) => o.stmts)),
      (op, e) => op.failure(e),
    );
  }

  /** Commits these statements in the next group commit; a failure rejects with the store's own error. */
  commit(stmts: Stmt[]): Promise<void> {
    return this.commits.add({ stmts, failure: (e) => e as Error });
  }

  /** The new episode and its opening events, with the trainer's step and rollout group when sent. */
  reset(live: LiveEpisode, result: StepResult, training: Pick<EpisodeInsert, 'trainStep' | 'rolloutGroup'> = {}) {
    const e = live.episode;
    const events = eventRows(result.events, 0);
    this.eventCounts.set(live, events.length);
    const progress = progressNow(live, events.length);
    this.goals.set(live, progress.hiddenGoal);
    return this.commits.add({
      failure: recordError,
      stmts: this.writes.newEpisode(
        {
          id: live.id,
          envId: live.config.envId,
          d: live.config.d,
          seed: live.config.seed,
          // the rules it is played under, so a later replay or re-score stays honest
          engineVersion: ENGINE_VERSION,
          journeyEnvs: e.config.journeyEnvs ? JSON.stringify(e.config.journeyEnvs) : null,
          rewardRevision: REWARD_REVISION,
          axisOverrides: JSON.stringify(live.config.axisOverrides ?? {}),
          axes: JSON.stringify(e.axes),
          weights: null,
          catalogId: e.catalogId,
          player: trainerPlayer(live.run),
          storedBytes: storedBytesOf(events, []),
          ...training,
          ...progress,
        },
        events,
      ),
    });
  }

  /**
   * One step (already counted in live.steps): the action as stored (storedAction), its events,
   * the new status; resolves, once committed, with what it stored. The row's event count and the
   * unique (episode, seq) and (episode, step key) rows make a stale writer's step (another
   * worker or process stepped the episode meanwhile) fail as a StepConflictError instead of
   * forking the episode.
   */
  async step(
    live: LiveEpisode,
    action: StoredActionText,
    result: StepResult,
    opts: StepOptions = {},
  ): Promise<RecordedStep> {
    const firstSeq = this.eventCounts.get(live) ?? live.episode.events.length - result.events.length;
    const eventCount = firstSeq + result.events.length;
    this.eventCounts.set(live, eventCount);
    const now = progressNow(live, eventCount);
    const goalChanged = this.goals.get(live) !== now.hiddenGoal;
    if (goalChanged) this.goals.set(live, now.hiddenGoal);
    const hiddenGoal = !goalChanged ? null : (opts.fullGoal?.() ?? now.hiddenGoal);
    const progress = { ...now, hiddenGoal };
    const common = {
      seq: live.steps - 1,
      turn: live.episode.turn - 1,
      stepKey: opts.stepKey ?? null,
      eventEnd: eventCount,
      actor: opts.actor ?? null,
      modelRecord: opts.modelRecord ?? null,
    };
    const events = eventRows(result.events, firstSeq);
    const addedBytes = storedBytesOf(events, [action]); // what the per-episode storage cap counts
    await this.commits.add({
      failure: this.conflictOr(live.id),
      stmts: this.writes.step({
        episodeId: live.id,
        prevEventCount: firstSeq,
        action: { ...common, ...action },
        events,
        progress,
        addedBytes,
      }),
    });
    return { progress, addedBytes };
  }

  get stats(): GroupCommitStats {
    return { ...this.commits.stats };
  }

  /** Resolves when everything enqueued so far is committed. */
  drain(): Promise<void> {
    return this.commits.drain();
  }
}

interface GroupCommitStats {
  batches: number;
  ops: number;
  /** Largest number of operations committed together. */
  largestBatch: number;
}

interface Queued<Op> {
  op: Op;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class GroupCommit<Op> {
  private queue: Queued<Op>[] = [];
  private flushing: Promise<void> | null = null;
  readonly stats: GroupCommitStats = { batches: 0, ops: 0, largestBatch: 0 };

  /**
   * `write` commits a batch, all of it or (throwing) none; `failure` turns an operation's own
   * error (when written alone) into what its caller gets.
   */
  constructor(
    private readonly write: (ops: Op[]) => Promise<void> | void,
    private readonly failure: (op: Op, e: unknown) => Error,
  ) {}

  /** Whether the store's write lock was held by another process (SQLite with no busy timeout). */
  private static busy = (e: unknown) => (e as { code?: string })?.code === 'SQLITE_BUSY';

  /** Resolves once the operation is committed; rejects with `failure`'s error if it cannot be. */
  add(op: Op): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Resolves when everything added so far is committed. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Writes batches back to back until the queue is empty. */
  private async flush(): Promise<void> {
    // Let the current tick's requests join the batch.
    await new Promise<void>((r) => setImmediate(r));
    let busySince = 0;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch.map((q) => q.op));
        this.counted(batch.length);
        for (const q of batch) q.resolve();
        busySince = 0;
      } catch (e) {
        // Another worker holds the write lock: wait for it on the event loop, not in SQLite's
        // busy handler (which sleeps the thread), for up to 5 s; what arrives meanwhile joins.
        if (GroupCommit.busy(e) && (busySince ||= Date.now()) > Date.now() - 5000) {
          this.queue = batch.concat(this.queue);
          await new Promise<void>((r) => setTimeout(r, 1));
          continue;
        }
        // One bad operation (say, a reused episode_id) must not fail its neighbours: write the
        // batch again one operation per transaction, in order, and fail only what fails.
        for (const q of batch) {
          try {
            await this.write([q.op]);
            this.counted(1);
            q.resolve();
          } catch (e) {
            q.reject(this.failure(q.op, e));
          }
        }
      }
      // A synchronous writer (better-sqlite3) holds the thread while it commits: let the
      // requests that arrived meanwhile run before the next batch.
      if (this.queue.length > 0) await new Promise<void>((r) => setImmediate(r));
    }
    this.flushing = null;
  }

  private counted(ops: number): void {
    this.stats.batches++;
    this.stats.ops += ops;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, ops);
  }
}
