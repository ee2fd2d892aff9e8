// Group commit: callers add operations and get a promise each; one write at a time takes
// everything queued, and each promise resolves only once the write holding its operation has
// committed (the recorder acknowledges after it: acknowledged = durable). What arrives during a
// write forms the next batch; a commit window (below) may hold a batch a little longer so that
// it grows. A failed batch is written again one operation at a time, so one bad operation fails
// alone.

/**
 * How long a batch may gather before it is written. A commit costs a fixed part whatever it
 * holds (the last page of every append-ordered index, the header page, the sequence row, the
 * transaction itself), so larger batches cost less per operation. A batch is written once it
 * holds `minOps` operations or its oldest operation has waited `maxWaitMs`, whichever comes
 * first; maxWaitMs 0 (or minOps ≤ 1) is no window: the batch is what arrived meanwhile. The
 * window applies only after a batch of two or more operations: a lone client stepping one
 * request at a time (batches of one) would only wait for company that never comes.
 */
export interface CommitWindow {
  minOps: number;
  maxWaitMs: number;
}

export interface GroupCommitStats {
  batches: number;
  ops: number;
  /** Largest number of operations committed together. */
  largestBatch: number;
}

interface Queued<Op> {
  op: Op;
  resolve: () => void;
  reject: (e: Error) => void;
  /** performance.now() when it was added: the window counts from the oldest queued. */
  at: number;
}

export class GroupCommit<Op> {
  private queue: Queued<Op>[] = [];
  private flushing: Promise<void> | null = null;
  private readonly window: CommitWindow | null;
  /** Ends the window's wait early (the batch reached minOps). */
  private gathered: (() => void) | null = null;
  /** Operations in the last batch written: the window waits only when others came together. */
  private lastBatch = 0;
  readonly stats: GroupCommitStats = { batches: 0, ops: 0, largestBatch: 0 };

  /**
   * `write` commits a batch, all of it or (throwing) none; `failure` turns an operation's own
   * error (when written alone) into what its caller gets.
   */
  constructor(
    private readonly write: (ops: Op[]) => Promise<void> | void,
    private readonly failure: (op: Op, e: unknown) => Error,
    window: CommitWindow | null = null,
  ) {
    this.window = window && window.maxWaitMs > 0 && window.minOps > 1 ? window : null;
  }

  /** Resolves once the operation is committed; rejects with `failure`'s error if it cannot be. */
  add(op: Op): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ op, resolve, reject, at: performance.now() });
      if (!this.flushing) this.flushing = this.flush();
      else if (this.gathered && this.queue.length >= this.window!.minOps) this.gathered();
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
    while (this.queue.length > 0) {
      await this.gather();
      const batch = this.queue;
      this.queue = [];
      this.lastBatch = batch.length;
      try {
        await this.write(batch.map((q) => q.op));
        this.counted(batch.length);
        for (const q of batch) q.resolve();
      } catch {
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

  /**
   * The commit window: after a batch of two or more, waits until the queue holds minOps or its
   * oldest op has waited maxWaitMs.
   */
  private async gather(): Promise<void> {
    const w = this.window;
    if (!w || this.queue.length >= w.minOps || this.lastBatch < 2) return;
    const left = this.queue[0].at + w.maxWaitMs - performance.now();
    if (left <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.gathered = resolve;
      timer = setTimeout(resolve, left);
    });
    clearTimeout(timer);
    this.gathered = null;
  }
}
