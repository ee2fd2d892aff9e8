// The group commit and its commit window (group-commit.ts): an operation is acknowledged only
// once the write holding it has committed; the window makes batches larger but never holds an
// operation longer than its bound; a failing operation fails alone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit, type CommitWindow } from './group-commit';

/** A writer whose writes stay pending until the test commits (or fails) them. */
function heldWriter(failing: (op: number) => boolean = () => false) {
  const writes: { ops: number[]; commit: () => void }[] = [];
  const write = (ops: number[]) =>
    new Promise<void>((resolve, reject) => {
      const bad = ops.find(failing);
      writes.push({ ops, commit: () => (bad === undefined ? resolve() : reject(new Error(`op ${bad} is bad`))) });
    });
  return { writes, write };
}

/** Settled state of each promise: 'ok', the error's message, or 'waiting'. */
function watch(promises: Promise<void>[]) {
  const state = promises.map(() => 'waiting');
  promises.forEach((p, i) =>
    p.then(
      () => (state[i] = 'ok'),
      (e: Error) => (state[i] = e.message),
    ),
  );
  return state;
}

const failure = (op: number, e: unknown) => new Error(`${op}: ${(e as Error).message}`);

describe('group commit', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('acknowledges only what has committed; what arrives during a write forms the next batch', async () => {
    const w = heldWriter();
    const gc = new GroupCommit<number>(w.write, failure);
    const first = watch([gc.add(1), gc.add(2)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2]]);
    const second = watch([gc.add(3)]);
    await vi.advanceTimersByTimeAsync(10);
    expect(first).toEqual(['waiting', 'waiting']);
    expect(w.writes).toHaveLength(1); // one write at a time
    w.writes[0].commit();
    await vi.advanceTimersByTimeAsync(0);
    expect(first).toEqual(['ok', 'ok']);
    expect(second).toEqual(['waiting']);
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2], [3]]);
    w.writes[1].commit();
    await gc.drain();
    expect(second).toEqual(['ok']);
    expect(gc.stats).toEqual({ batches: 2, ops: 3, largestBatch: 2 });
  });

  it('a failing operation fails alone: the batch is written again one operation at a time', async () => {
    const w = heldWriter((op) => op === 2);
    const gc = new GroupCommit<number>(w.write, failure, { minOps: 3, maxWaitMs: 5 });
    const state = watch([gc.add(1), gc.add(2), gc.add(3)]);
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(0);
      w.writes[i].commit();
    }
    await gc.drain();
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(state).toEqual(['ok', '2: op 2 is bad', 'ok']);
  });
});

describe('the commit window', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const window: CommitWindow = { minOps: 4, maxWaitMs: 5 };

  /** A group commit whose last batch held two operations (others are about: the window is on). */
  async function busy(w: ReturnType<typeof heldWriter>) {
    const gc = new GroupCommit<number>(w.write, failure, window);
    gc.add(-1);
    gc.add(-2);
    await vi.advanceTimersByTimeAsync(0);
    w.writes.shift()!.commit();
    await gc.drain();
    return gc;
  }

  it('never holds a lone client stepping one request at a time (batches of one)', async () => {
    const w = heldWriter();
    const gc = new GroupCommit<number>(w.write, failure, window);
    for (let i = 0; i < 3; i++) {
      const state = watch([gc.add(i)]);
      await vi.advanceTimersByTimeAsync(0);
      expect(w.writes.map((x) => x.ops)).toEqual([[i]]);
      w.writes.shift()!.commit();
      await vi.advanceTimersByTimeAsync(0);
      expect(state).toEqual(['ok']);
    }
  });

  it('never holds a lone operation longer than maxWaitMs, and acknowledges it only after its commit', async () => {
    const w = heldWriter();
    const gc = await busy(w);
    const state = watch([gc.add(1)]);
    await vi.advanceTimersByTimeAsync(3);
    expect(w.writes).toHaveLength(0); // it does wait for company
    await vi.advanceTimersByTimeAsync(2);
    expect(w.writes.map((x) => x.ops)).toEqual([[1]]);
    expect(state).toEqual(['waiting']);
    w.writes[0].commit();
    await gc.drain();
    expect(state).toEqual(['ok']);
  });

  it('writes as soon as minOps operations are queued, without waiting out the window', async () => {
    const w = heldWriter();
    const gc = await busy(w);
    gc.add(1);
    await vi.advanceTimersByTimeAsync(1);
    gc.add(2);
    gc.add(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.writes).toHaveLength(0);
    gc.add(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2, 3, 4]]);
  });

  it('counts the bound from the oldest queued operation: one that waited out a slow write goes at once', async () => {
    const w = heldWriter();
    const gc = await busy(w);
    for (let i = 1; i <= 4; i++) gc.add(i);
    await vi.advanceTimersByTimeAsync(0);
    gc.add(5); // arrives while the first batch is being written
    await vi.advanceTimersByTimeAsync(20);
    w.writes[0].commit();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('gathers a larger batch than without the window', async () => {
    const sizes = async (win: CommitWindow | null) => {
      const w = heldWriter();
      const gc = new GroupCommit<number>(w.write, failure, win);
      // two at once, then an operation every millisecond, each write committing within 1 ms
      gc.add(-1);
      for (let i = 0; i < 40; i++) {
        gc.add(i);
        await vi.advanceTimersByTimeAsync(1);
        for (const x of w.writes) x.commit();
      }
      for (;;) {
        await vi.advanceTimersByTimeAsync(10);
        for (const x of w.writes) x.commit();
        if (gc.stats.ops === 41) break;
      }
      return gc.stats.batches;
    };
    const without = await sizes(null);
    const withWindow = await sizes({ minOps: 8, maxWaitMs: 6 });
    expect(without).toBeGreaterThan(20);
    expect(withWindow).toBeLessThanOrEqual(8);
  });
});
