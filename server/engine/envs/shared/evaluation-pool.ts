// The PD/SUB evaluation pool (recommend-pool.ts chooses it), best first, kept as columns. An
// episode holds its pool from reset to its end: a few hundred entry objects per episode (four
// boxed floats each) were most of an idle session's heap and of a busy server's GC work (round
// 18). Entries are built when read: a goal's `pool` is still its list of entries (poolOf below).

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

  /** A pool of these entries, best first. */
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
}

const POOLS = new WeakMap<object, EvaluationPool>();

/**
 * The columns of a spec's pool. A built spec's `pool` is a getter that builds the entries on every
 * read (JSON, structured clones, the oracle); engine code reads the columns it was built with.
 * A spec made otherwise (a copy, a test's) gets columns of its entries, once.
 */
export function poolOf(spec: { readonly pool: PoolEntry[] }): EvaluationPool {
  let pool = POOLS.get(spec);
  if (pool === undefined) POOLS.set(spec, (pool = EvaluationPool.of(spec.pool)));
  return pool;
}

/** `spec` with its pool's columns: the spec's `pool` getter must read these. */
export function keepPool<T extends object>(spec: T, pool: EvaluationPool): T {
  POOLS.set(spec, pool);
  return spec;
}

/** id → position, set one by one (`new Map(ids.map((id, i) => [id, i]))` made a pair array per entry: ~40 % more CPU). */
function idPositions(ids: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) at.set(ids[i], i);
  return at;
}
