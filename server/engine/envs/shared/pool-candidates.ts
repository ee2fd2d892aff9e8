// The candidates' values side by side (pool-types.ts `Candidates`) for one pool: a category's
// products are spread over the whole catalog, and reading ten columns at scattered indices costs
// a cache miss each. A large category's candidates are its stride sample — the same every reset,
// copied once when the store is built — plus the few others the filtered search found.

import type { FilterColumns } from '../../catalog/filters';
import type { Candidates, CategoryPool } from './pool-types';

/** Empty arrays for n candidates at `rows` of `columns`. */
export function newCandidates(
  index: ArrayLike<number>,
  columns: FilterColumns,
  rows: ArrayLike<number>,
  ids: (string | undefined)[],
  base: Candidates | null = null,
): Candidates {
  const n = index.length;
  return {
    index,
    price: new Float64Array(n),
    rating: new Float64Array(n),
    shipDays: new Uint8Array(n),
    brand: new Int32Array(n),
    stock: new Uint16Array(n),
    bagAt: new Int32Array(n),
    bagLen: new Uint16Array(n),
    ids,
    attrs: [],
    columns,
    rows,
    base,
  };
}

/** Copies position p of `from` to position k of c (ids aside). */
export function copyCandidate(c: Candidates, k: number, from: Candidates, p: number): void {
  c.price[k] = from.price[p];
  c.rating[k] = from.rating[p];
  c.shipDays[k] = from.shipDays[p];
  c.brand[k] = from.brand[p];
  c.stock[k] = from.stock[p];
  c.bagAt[k] = from.bagAt[p];
  c.bagLen[k] = from.bagLen[p];
}

/** Reads the values of row r of `columns` into position k (bags aside). */
export function readCandidate(c: Candidates, k: number, columns: FilterColumns, r: number): void {
  c.price[k] = columns.priceCents[r] / 100; // Product.price, the same division
  c.rating[k] = columns.rating10[r] / 10;
  c.shipDays[k] = columns.shipDays[r];
  c.brand[k] = columns.brand[r];
  c.stock[k] = columns.stock[r];
}

/**
 * A large category's candidates: its documents (pool.sample, copied as a block) followed by the
 * products at `extraRows` (rows of pool.all that are not documents), read from the category's
 * own copy when it has one, else from its rows and the bags kept for them.
 */
export function largeCandidates(pool: CategoryPool, extraRows: readonly number[]): Candidates {
  const sample = pool.sample!;
  const m = sample.index.length;
  const n = m + extraRows.length;
  const index = new Int32Array(n);
  const rows = new Int32Array(n);
  index.set(sample.index);
  rows.set(sample.rows);
  const ids = sample.ids.slice();
  const c = newCandidates(index, pool.rows!, rows, ids, sample);
  c.price.set(sample.price);
  c.rating.set(sample.rating);
  c.shipDays.set(sample.shipDays);
  c.brand.set(sample.brand);
  c.stock.set(sample.stock);
  c.bagAt.set(sample.bagAt);
  c.bagLen.set(sample.bagLen);
  const local = pool.local;
  for (let j = 0; j < extraRows.length; j++) {
    const k = m + j;
    const r = extraRows[j];
    index[k] = pool.all[r];
    rows[k] = r;
    if (local) {
      copyCandidate(c, k, local, r);
      ids.push(local.ids[r]);
    } else {
      readCandidate(c, k, pool.rows!, r);
      c.bagAt[k] = pool.rowBag![r];
      c.bagLen[k] = pool.rowBagLen![r];
      ids.push(undefined);
    }
  }
  return c;
}

/** Attribute column a of the candidates (a block copy of their base's, which is kept, and the rest). */
export function attrCodes(c: Candidates, a: number): Int32Array {
  let codes = c.attrs[a];
  if (!codes) {
    const column = c.columns.attrCols[a];
    codes = c.attrs[a] = new Int32Array(c.index.length);
    let k = 0;
    if (c.base) {
      const base = attrCodes(c.base, a);
      codes.set(base);
      k = base.length;
    }
    for (; k < codes.length; k++) codes[k] = column[c.rows[k]];
  }
  return codes;
}
