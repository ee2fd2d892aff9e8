// Typed arrays the evaluation pool (recommend-pool.ts) reuses from one reset to the next. A pool
// of a few hundred candidates allocated about twenty typed arrays per reset; each is an off-heap
// buffer (~1–2 µs to make, and work for the GC). pool() runs to its end without re-entering
// itself (its callbacks build no pool), so one set per thread is enough. The arrays come back
// with old contents: every caller writes an entry before reading it, or fills the part it uses.

/** Which array: each use in pool() has its own, so two live arrays never share one. */
export const Slot = {
  Met: 0,
  Compatible: 1,
  Preferred: 2,
  Skip: 3,
  Need: 4,
  At: 5,
  S: 6,
  U: 7,
  U0: 8,
  Sims: 9,
  Rel: 10,
  Rels: 11,
  Keys: 12,
  BoundsMajor: 13,
  BoundsMinor: 14,
  SortFrom: 15,
  SortTo: 16,
  Memo: 17,
  EntryRows: 18,
} as const;
export type Slot = (typeof Slot)[keyof typeof Slot];
const SLOTS = Object.keys(Slot).length;

export class PoolScratch {
  private readonly f64s: (Float64Array | undefined)[] = new Array(SLOTS);
  private readonly i32s: (Int32Array | undefined)[] = new Array(SLOTS);
  private readonly u8s: (Uint8Array | undefined)[] = new Array(SLOTS);
  private readonly i8s: (Int8Array | undefined)[] = new Array(SLOTS);
  /** one mask per constraint */
  private readonly masks: (Uint8Array | undefined)[] = [];

  /** At least n entries; grown by doubling so a growing catalog settles after a few resets. */
  f64(slot: Slot, n: number): Float64Array {
    return kept(this.f64s, slot, n, Float64Array);
  }

  i32(slot: Slot, n: number): Int32Array {
    return kept(this.i32s, slot, n, Int32Array);
  }

  u8(slot: Slot, n: number): Uint8Array {
    return kept(this.u8s, slot, n, Uint8Array);
  }

  i8(slot: Slot, n: number): Int8Array {
    return kept(this.i8s, slot, n, Int8Array);
  }

  /** The mask of constraint j (at least n entries). */
  mask(j: number, n: number): Uint8Array {
    return kept(this.masks, j, n, Uint8Array);
  }
}

/** The array kept at `at`, or a larger one put in its place when it holds fewer than n entries. */
function kept<A extends ArrayLike<number>>(
  arrays: (A | undefined)[],
  at: number,
  n: number,
  Make: new (length: number) => A,
): A {
  const a = arrays[at];
  return a !== undefined && a.length >= n ? a : (arrays[at] = new Make(room(a, n)));
}

const room = (old: ArrayLike<number> | undefined, n: number) => Math.max(n, 2 * (old?.length ?? 0), 64);

/** The one set of this thread (a worker thread loads its own copy of the module). */
export const poolScratch = new PoolScratch();
