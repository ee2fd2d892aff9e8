// The PD/SUB evaluation pool (recommend-pool.ts chooses it), best first, kept as columns. An
// episode holds its pool from reset to its end: a few hundred entry objects per episode (four
// boxed floats each) were most of an idle session's heap and of a busy server's GC work (round
// 18). Entries are built when asked for; as JSON (a stored goal) the pool is its list of entries.

import type { PoolPositions } from './pool-positions';

export interface PoolEntry {
  id: string;
  /** satisfaction s(p) */
  s: number;
  /** persona utility u(p) */
  u: number;
  /** similarity to the reference */
  sim: number;
  /** graded relevance (see recommend.ts) */
  rel: number;
  /** catalog stock (the episode's overrides apply on top) */
  stock: number;
}

export class EvaluationPool {
  readonly length: number;

  /**
   * Entry j is ids[j], its s, u, sim and rel at values[4j] … values[4j + 3] and its catalog stock
   * at stock[j]. `positions` finds an id's entry (recommend-pool.ts passes one read through its
   * category's id → row Map); without it a Map of the ids is built on first use.
   */
  constructor(
    readonly ids: readonly string[],
    private readonly values: Float64Array,
    readonly stock: Uint16Array,
    private positions: PoolPositions | null = null,
  ) {
    this.length = ids.length;
  }

  /** A pool of these entries, best first (tests). */
  static of(entries: readonly PoolEntry[]): EvaluationPool {
    const values = Float64Array.from(entries.flatMap((e) => [e.s, e.u, e.sim, e.rel]));
    return new EvaluationPool(
      entries.map((e) => e.id),
      values,
      Uint16Array.from(entries, (e) => e.stock),
    );
  }

  rel(j: number): number {
    return this.values[4 * j + 3];
  }

  entry(j: number): PoolEntry {
    const v = this.values;
    return {
      id: this.ids[j],
      s: v[4 * j],
      u: v[4 * j + 1],
      sim: v[4 * j + 2],
      rel: v[4 * j + 3],
      stock: this.stock[j],
    };
  }

  entries(): PoolEntry[] {
    return Array.from({ length: this.length }, (_, j) => this.entry(j));
  }

  /** The entry of a product id (its rank − 1), undefined when the product is not in the pool. */
  positionOf(id: string): number | undefined {
    return (this.positions ??= idPositions(this.ids)).get(id);
  }

  toJSON(): PoolEntry[] {
    return this.entries();
  }
}

/** id → position, set one by one (`new Map(ids.map((id, i) => [id, i]))` made a pair array per entry: ~40 % more CPU). */
function idPositions(ids: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) at.set(ids[i], i);
  return at;
}
