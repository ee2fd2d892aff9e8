// Group commit: callers add operations and get a promise each; one write at a time takes
// everything queued, and each promise resolves only once the write holding its operation has
// committed (the recorder acknowledges after it: acknowledged = durable). What arrives during a
// write forms the next batch. A failed batch is written again one operation at a time, so one
// bad operation fails alone.

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
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
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
}
