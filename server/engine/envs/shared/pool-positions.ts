// A pool entry's position by id (EvaluationPool.positionOf: p_oos at first sight and the
// verifier read it). A Map of the pool's few hundred ids was built for every episode with a pool
// (~2–3 % of a bench:api run's CPU, round 13). A pool over a category's own copy of values
// (pool.local: every category up to 6,000 products) is read instead through that copy's id → row
// Map, built once per category, and the pool's position of each row, an array written per pool.

import type { Candidates } from './pool-types';

export interface PoolPositions {
  get(id: string): number | undefined;
}

/** Per kept candidate set: product id → row (its position in the candidates). */
const ROWS = new WeakMap<Candidates, Map<string, number>>();

function rowsById(c: Candidates): Map<string, number> {
  let rows = ROWS.get(c);
  if (rows === undefined) {
    rows = new Map();
    for (let k = 0; k < c.index.length; k++) {
      const id = c.ids[k];
      if (id === undefined) throw new Error('pool positions: a candidate without its id');
      rows.set(id, k);
    }
    ROWS.set(c, rows);
  }
  return rows;
}

/** The positions of a pool whose entry j is candidate rowOfEntry[j] of `c` (a set kept from reset to reset). */
export function positionsByRow(c: Candidates, rowOfEntry: ArrayLike<number>, entries: number): PoolPositions {
  const rows = rowsById(c);
  const position = new Int32Array(c.index.length).fill(-1);
  for (let j = 0; j < entries; j++) position[rowOfEntry[j]] = j;
  return {
    get(id) {
      const k = rows.get(id);
      return k === undefined || position[k] < 0 ? undefined : position[k];
    },
  };
}
