// Records trainer episodes in the app's store (Episode / EpisodeEvent / EpisodeAction, the
// same rows the playground writes, so /episodes lists them and the replay page opens them),
// tagged player = "trainer:<run>". Since round 10 a step stores only its action and the row's
// progress; the events are derived from them and stored later (server/episodes/materialise.ts).
// Group commit (group-commit.ts): every reset and step enqueues its rows; one transaction at a
// time writes everything queued, and each caller's promise resolves only once the transaction
// holding its rows has committed. The server acknowledges after that promise:
// acknowledged = durable, without one transaction per step.

import type { PrismaClient } from '@/server/generated/prisma/client';
import { ENGINE_VERSION, REWARD_REVISION, type StepResult } from '@/server/engine';
import {
  eventRows,
  type EventRow,
  type ProgressColumns,
  type SerialisedBreakdown,
} from '@/server/episodes/sqlite-store/rows';
import { goalWithoutDataJson } from '@/server/episodes/stored-goal';
import type { FinishedLogs } from './finished-logs';
import { GroupCommit, type CommitWindow } from './group-commit';
import type { LiveEpisode } from './sessions';

/** Where the episode stands (the SQLite store's progress columns). */
type EpisodeRowUpdate = ProgressColumns & { status: 'active' | 'done' };
/** A step's update: the hidden goal only when it changed (null: as stored). */
export type StepRowUpdate = Omit<EpisodeRowUpdate, 'hiddenGoal'> & { hiddenGoal: string | null };

/** The Episode row's columns fixed at reset. */
interface EpisodeRowCreate {
  envId: string;
  d: number;
  seed: number;
  engineVersion: number;
  journeyEnvs: string | null;
  rewardRevision: number;
  axisOverrides: string;
  axes: string;
  weights: string | null;
  catalogId: string;
  player: string;
  /** The watermark: 0 when the events are left to the materialiser, null when stored here (materialise.ts). */
  eventsStored: number | null;
}

/** What one reset or step adds to the store. */
export type RecordOp =
  | { kind: 'create'; id: string; create: EpisodeRowCreate; events: EventRow[]; update: EpisodeRowUpdate }
  | {
      kind: 'step';
      id: string;
      action: {
        seq: number;
        turn: number;
        format: 'text' | 'json';
        raw: string;
        stepKey: string | null;
        eventEnd: number;
      };
      events: EventRow[];
      update: StepRowUpdate;
    };

/** Writes a batch of operations in one transaction: all of them, or (throwing) none. */
export interface BatchWriter {
  write(ops: RecordOp[]): Promise<void> | void;
}

export interface RecorderStats {
  /** Resets and steps handed to the recorder (the idle materialiser watches it move). */
  enqueued: number;
  batches: number;
  ops: number;
  /** Largest number of operations committed together. */
  largestBatch: number;
}

function recordError(e: unknown): Error {
  // Prisma's messages span lines (the call site, then the cause); the cause is the last line.
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
 * The step's rows collide with rows already stored (same action seq or step key): another
 * worker stepped this episode meanwhile, so this worker's copy was stale. Nothing was written;
 * the caller rebuilds the episode from the store and tries again.
 */
export class StepConflictError extends Error {
  constructor(readonly episodeId: string) {
    super(`episode "${episodeId}" was stepped by another worker meanwhile`);
  }
}

/** Prisma's unique-constraint violation (P2002), the same code on SQLite and PostgreSQL. */
// Prisma's unique-constraint violation (P2002, the same code on SQLite and PostgreSQL), or
// better-sqlite3's own code from the SQLite fast path (sqlite-writer.ts).
const isUniqueViolation = (e: unknown) => {
  const code = (e as { code?: unknown })?.code;
  return code === 'P2002' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

export function trainerPlayer(run: string | null): string {
  return `trainer:${run ?? 'unnamed'}`;
}

/**
 * The hidden goal as stored for a trainer episode: envId, summary and the revealed slots, which
 * change turn by turn; the goal's data (31–250 KB, fixed for the episode) is left out and
 * derived from the row's config by whoever reads it (server/episodes/stored-goal.ts).
 */
export const hiddenGoalJson = goalWithoutDataJson;

/** The Episode row's state now (without the goal's text: the goal, as stored). */
function progressNow(live: LiveEpisode, eventCount: number): StepRowUpdate {
  const e = live.episode;
  return {
    turn: e.turn,
    status: e.done ? 'done' : 'active',
    terminationReason: e.termination,
    reward: e.breakdown?.total ?? null,
    isCorrect: e.breakdown?.isCorrect ?? null,
    breakdown: e.breakdown ? JSON.stringify(e.breakdown) : null,
    hiddenGoal: null,
    eventCount,
  };
}

/** The Episode row's state now, with the goal's text. */
const rowUpdate = (live: LiveEpisode, eventCount: number): EpisodeRowUpdate => ({
  ...progressNow(live, eventCount),
  hiddenGoal: hiddenGoalJson(live.episode.hiddenGoal()),
});

/** The row's breakdown text, for the reward event to reuse (eventRows). */
const serialisedBreakdown = (live: LiveEpisode, update: StepRowUpdate): SerialisedBreakdown | null =>
  update.breakdown === null ? null : { breakdown: live.episode.breakdown, json: update.breakdown };

/** Batches written by Prisma (any database Prisma serves): one batch transaction per batch. */
export function prismaWriter(prisma: PrismaClient): BatchWriter {
  return {
    async write(ops) {
      const creates = ops.filter((o) => o.kind === 'create');
      const steps = ops.filter((o) => o.kind === 'step');
      const events = ops.flatMap((o) => o.events.map((r) => ({ ...r, episodeId: o.id })));
      // The last update of each episode in the batch is its state after the batch (with the
      // latest hidden goal any of them carried).
      const updates = new Map<string, StepRowUpdate>();
      for (const s of steps)
        updates.set(s.id, { ...s.update, hiddenGoal: s.update.hiddenGoal ?? updates.get(s.id)?.hiddenGoal ?? null });
      // One batch transaction (a list of queries), not an interactive one: Prisma runs it in far
      // fewer round trips (measured ~3× faster here).
      await prisma.$transaction([
        ...(creates.length > 0
          ? [prisma.episode.createMany({ data: creates.map((c) => ({ id: c.id, ...c.create, ...c.update })) })]
          : []),
        ...(steps.length > 0
          ? [prisma.episodeAction.createMany({ data: steps.map((s) => ({ episodeId: s.id, ...s.action })) })]
          : []),
        ...(events.length > 0 ? [prisma.episodeEvent.createMany({ data: events })] : []),
        ...[...updates].map(([id, data]) =>
          prisma.episode.update({ where: { id }, data: { ...data, hiddenGoal: data.hiddenGoal ?? undefined } }),
        ),
      ]);
    },
  };
}

const isWriter = (x: PrismaClient | BatchWriter): x is BatchWriter =>
  typeof (x as Partial<BatchWriter>).write === 'function';

export interface RecorderOptions {
  /**
   * 'deferred': per step only the action and the row's progress are stored; the events (and the
   * goal's text mid-episode) are derived from them later (server/episodes/materialise.ts).
   * 'stored': the events are written with each step. Default 'deferred'.
   */
  events?: 'deferred' | 'stored';
  /**
   * Deferred only: where a finished episode's log goes once its last step has committed, for the
   * idle materialiser to write out without a replay (finished-logs.ts). Absent: replayed later.
   */
  finishedLogs?: FinishedLogs | null;
  /** How long a batch may gather (group-commit.ts); default none. serve:env sets its configured one (config.ts). */
  commitWindow?: CommitWindow | null;
}

export class Recorder {
  private readonly commits: GroupCommit<RecordOp>;
  /** Events recorded so far per live episode (Episode.events copies the whole log on each read). */
  private eventCounts = new WeakMap<LiveEpisode, number>();
  /** The hidden goal as last enqueued per live episode: a step rewrites it only when it changed. */
  private goals = new WeakMap<LiveEpisode, string>();
  private enqueued = 0;

  private readonly deferred: boolean;
  private readonly finishedLogs: FinishedLogs | null;

  /** A Prisma client (any store Prisma serves), or a writer of its own (the SQLite fast path). */
  constructor(target: PrismaClient | BatchWriter, options: RecorderOptions = {}) {
    const writer = isWriter(target) ? target : prismaWriter(target);
    this.commits = new GroupCommit<RecordOp>(
      (ops) => writer.write(ops),
      (op, e) => (op.kind === 'step' && isUniqueViolation(e) ? new StepConflictError(op.id) : recordError(e)),
      options.commitWindow ?? null,
    );
    this.deferred = (options.events ?? 'deferred') === 'deferred';
    this.finishedLogs = this.deferred ? (options.finishedLogs ?? null) : null;
  }

  /** The new episode and its opening events. */
  reset(live: LiveEpisode, result: StepResult): Promise<void> {
    const e = live.episode;
    this.eventCounts.set(live, result.events.length);
    return this.enqueue({
      kind: 'create',
      id: live.id,
      events: this.deferred ? [] : eventRows(result.events, 0),
      create: {
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
        eventsStored: this.deferred ? 0 : null,
      },
      update: this.withGoal(live, rowUpdate(live, result.events.length)),
    });
  }

  /**
   * One step (already counted in live.steps): the action exactly as received (text or
   * structured), its events, the new status. The unique (episode, seq) and (episode, step key)
   * rows make a stale worker's write fail as a StepConflictError instead of forking the episode.
   */
  step(live: LiveEpisode, action: unknown, result: StepResult, stepKey: string | null = null): Promise<void> {
    const firstSeq = this.eventCounts.get(live) ?? live.episode.events.length - result.events.length;
    const eventCount = firstSeq + result.events.length;
    this.eventCounts.set(live, eventCount);
    const seq = live.steps - 1;
    const common = { seq, turn: live.episode.turn - 1, stepKey, eventEnd: eventCount };
    // Deferred: the goal's text (summary + slots) comes with the events, and the last step
    // writes it whatever this recorder last wrote (a materialiser may have written a newer one).
    const update = !this.deferred
      ? this.changedGoal(live, rowUpdate(live, eventCount))
      : live.episode.done
        ? rowUpdate(live, eventCount)
        : progressNow(live, eventCount);
    const written = this.enqueue({
      kind: 'step',
      id: live.id,
      action:
        typeof action === 'string'
          ? { ...common, format: 'text', raw: action }
          : { ...common, format: 'json', raw: JSON.stringify(action) },
      events: this.deferred ? [] : eventRows(result.events, firstSeq, serialisedBreakdown(live, update)),
      update,
    });
    const logs = this.finishedLogs;
    if (!logs || !live.episode.done) return written;
    // Only a committed log is kept (a conflicting or failed write keeps nothing), and before the
    // caller is answered, so the episode is never both out of the worker's hands and unqueued.
    // The events are filed as they are (serialised when written out, finished-logs.ts), with the
    // row's breakdown text for the reward event.
    const breakdown = serialisedBreakdown(live, update);
    return written.then(() => void logs.offer(live.id, live.episode.events, breakdown));
  }

  private withGoal(live: LiveEpisode, update: EpisodeRowUpdate): EpisodeRowUpdate {
    this.goals.set(live, update.hiddenGoal);
    return update;
  }

  /** The update with its hidden goal left out when it is what this episode last enqueued. */
  private changedGoal(live: LiveEpisode, update: EpisodeRowUpdate): StepRowUpdate {
    if (this.goals.get(live) === update.hiddenGoal) return { ...update, hiddenGoal: null };
    this.goals.set(live, update.hiddenGoal);
    return update;
  }

  get stats(): RecorderStats {
    return { enqueued: this.enqueued, ...this.commits.stats };
  }

  /** Resolves when everything enqueued so far is committed. */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  private enqueue(op: RecordOp): Promise<void> {
    this.enqueued++;
    return this.commits.add(op);
  }
}
