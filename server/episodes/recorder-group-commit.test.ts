// The group commit (group-commit.ts): an operation is acknowledged only once the write holding
// it has committed; a failing operation fails alone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from './recorder';

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
    const gc = new GroupCommit<number>(w.write, failure);
    const state = watch([gc.add(1), gc.add(2), gc.add(3)]);
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(0);
      w.writes[i].commit();
    }
    await gc.drain();
    expect(w.writes.map((x) => x.ops)).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(state).toEqual(['ok', '2: op 2 is bad', 'ok']);
  });

  it('waits out another writer holding the lock (SQLITE_BUSY) on the event loop, joining what arrives meanwhile', async () => {
    const written: number[][] = [];
    let busy = 2;
    const gc = new GroupCommit<number>((ops) => {
      if (busy-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      written.push(ops);
    }, failure);
    const state = watch([gc.add(1), gc.add(2)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(state).toEqual(['waiting', 'waiting']); // the first attempt met the lock
    const later = watch([gc.add(3)]);
    await vi.advanceTimersByTimeAsync(5);
    await gc.drain();
    expect(written).toEqual([[1, 2, 3]]);
    expect([...state, ...later]).toEqual(['ok', 'ok', 'ok']);
  });
});
