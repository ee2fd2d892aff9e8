// The PD/SUB evaluation pool read from catalog columns (issue 13). Same candidates, same
// numbers, same pool as the product-object path in recommend.ts, without materialising a
// Product per candidate: constraints and persona utility call persona.ts's functions on a
// reused probe holding one candidate's values, the TF-IDF similarity (similarity.ts) runs
// over the term-id bags and per-category document frequencies of pool-bags.ts, and the
// pool is chosen by selection over typed arrays (only its POOL_SIZE entries become objects).
// Floating-point operations happen in the same order as in similarities(), so every
// similarity, and so every reward, is bit-identical (pool-equivalence.test.ts, golden test).

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { Product, SearchFilters } from '../../catalog/types';
import { constraintMet, isPreferredBrand, utilityOf, type Constraint, type Persona } from './persona';
import { bagStoreOf, distinctBrands } from './pool-bags';

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

/** relevanceOf of recommend.ts for one candidate. */
export type Relevance = (s: number, u: number, sim: number, compatible: boolean) => number;

export interface ColumnCandidates {
  /** Distinct brands of the candidates, sorted. */
  brands(): string[];
  /** The candidates' prices, ascending. */
  sortedPrices(): ArrayLike<number>;
  /**
   * The pool: the `size` best candidates not excluded — by (s, u, rel, id) for discovery, by
   * (rel, id) for substitute — sorted by relevance (then id), as recommend.ts sorts entries.
   */
  pool(
    constraints: readonly Constraint[],
    persona: Persona,
    compatibility: readonly string[],
    excludeIds: readonly string[],
    relevance: Relevance,
    discovery: boolean,
    size: number,
  ): PoolEntry[];
}

/**
 * The candidates of recommend.ts's candidateProducts, as product indices: the whole leaf
 * category when it has at most scanLimit products, else the products a filtered search
 * finds (up to fullLimit), the category's stride sample and the reference.
 */
export function columnCandidates(
  catalog: ColumnarCatalog,
  reference: Product,
  filters: () => SearchFilters,
  scanLimit: number,
  fullLimit: number,
): ColumnCandidates {
  const store = bagStoreOf(catalog, scanLimit);
  const category = store.pool(reference.category);
  if (!category) throw new Error(`evaluation pool: category "${reference.category}" is not in catalog ${catalog.id}`);
  const refIndex = catalog.indexOf(reference.id);
  let indices: ArrayLike<number> = category.all;
  if (!category.whole) {
    const list: number[] = [];
    const marks = store.marks;
    const add = (i: number) => {
      if (i < 0 || marks[i]) return;
      marks[i] = 1;
      list.push(i);
    };
    for (const i of catalog.filterIndices(filters(), fullLimit)) add(i);
    for (let k = 0; k < category.docs.length; k++) add(category.docs[k]);
    add(refIndex);
    for (const i of list) marks[i] = 0;
    indices = list;
  }
  const cols = catalog.cols;

  return {
    brands: () => category.brands ?? distinctBrands(catalog, indices),
    sortedPrices() {
      if (category.sortedPrices) return category.sortedPrices;
      const prices = new Float64Array(indices.length);
      for (let k = 0; k < indices.length; k++) prices[k] = catalog.priceAt(indices[k]);
      return prices.sort();
    },
    pool(constraints, persona, compatibility, excludeIds, relevance, discovery, size) {
      const sims = store.similarities(category, refIndex, indices);
      const excluded = new Set(excludeIds.map((id) => catalog.indexOf(id)));
      const checks = constraints.map((c) => constraintCheck(catalog, c));
      const compat = compatibility.map((a) => checks[constraints.findIndex((c) => c.attr === a)]);
      const preferred = new Int8Array(cols.brandTable.length).fill(-1); // isPreferredBrand per brand code
      const n = indices.length;
      const at = new Int32Array(n); // candidate position k of each scored entry
      const s = new Float64Array(n);
      const u = new Float64Array(n);
      const rel = new Float64Array(n);
      let m = 0;
      for (let k = 0; k < n; k++) {
        const i = indices[k];
        if (excluded.has(i)) continue;
        let met = 0;
        for (let c = 0; c < checks.length; c++) if (checks[c](i)) met++;
        const sk = constraints.length === 0 ? 1 : met / constraints.length; // satisfaction() of persona.ts
        const b = cols.brand[i];
        if (preferred[b] < 0) preferred[b] = isPreferredBrand(cols.brandTable[b], persona) ? 1 : 0;
        const uk = utilityOf(
          cols.priceCents[i] / 100,
          cols.rating10[i] / 10,
          cols.shipDays[i],
          preferred[b] === 1,
          persona,
          sims[k],
        );
        let compatible = true;
        for (let c = 0; c < compat.length && compatible; c++) compatible = compat[c](i);
        at[m] = k;
        s[m] = sk;
        u[m] = uk;
        rel[m] = relevance(sk, uk, sims[k], compatible);
        m++;
      }
      // ties in relevance are broken by id, as recommend.ts does
      const ids: (string | undefined)[] = new Array(m);
      const idOf = (e: number) => (ids[e] ??= store.idAt(indices[at[e]]));
      const byId = catalog.text.idsAscend
        ? (a: number, b: number) => indices[at[a]] - indices[at[b]]
        : (a: number, b: number) => compareIds(idOf(a), idOf(b));
      const byRel = (a: number, b: number) => rel[b] - rel[a] || byId(a, b);
      const order: number[] = new Array(m);
      for (let e = 0; e < m; e++) order[e] = e;
      if (m > size) selectTop(order, size, discovery ? (a, b) => s[b] - s[a] || u[b] - u[a] || byRel(a, b) : byRel);
      if (order.length > size) order.length = size;
      order.sort(byRel);
      return order.map((e) => {
        const k = at[e];
        return { id: idOf(e), s: s[e], u: u[e], sim: sims[k], rel: rel[e], stock: cols.stock[indices[k]] };
      });
    },
  };
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Rearranges `order` so that its first k elements are the k smallest under `cmp` (a strict
 * total order), in any order: quickselect, median-of-three pivots.
 */
export function selectTop(order: number[], k: number, cmp: (a: number, b: number) => number): void {
  let lo = 0;
  let hi = order.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three to order[mid]
    if (cmp(order[mid], order[lo]) < 0) swap(order, mid, lo);
    if (cmp(order[hi], order[lo]) < 0) swap(order, hi, lo);
    if (cmp(order[hi], order[mid]) < 0) swap(order, hi, mid);
    const pivot = order[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (cmp(order[i], pivot) < 0) i++;
      while (cmp(pivot, order[j]) < 0) j--;
      if (i <= j) swap(order, i++, j--);
    }
    // [lo, j] ≤ pivot ≤ [i, hi]; elements between j and i equal the pivot
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

function swap(a: number[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/**
 * Whether product i meets a constraint: constraintMet on a probe holding the product's value.
 * Values from a string table (brand, attributes) are judged once per table entry.
 */
function constraintCheck(catalog: ColumnarCatalog, c: Constraint): (i: number) => boolean {
  const cols = catalog.cols;
  const probe = {
    price: 0,
    rating: 0,
    shipDays: 0,
    brand: '',
    attrs: {} as Record<string, string | number>,
  } as unknown as Product;
  switch (c.attr) {
    case 'price':
      return (i) => ((probe.price = cols.priceCents[i] / 100), constraintMet(probe, c));
    case 'rating':
      return (i) => ((probe.rating = cols.rating10[i] / 10), constraintMet(probe, c));
    case 'ship_days':
      return (i) => ((probe.shipDays = cols.shipDays[i]), constraintMet(probe, c));
    case 'brand': {
      const memo = new Int8Array(cols.brandTable.length).fill(-1);
      return (i) => {
        const b = cols.brand[i];
        if (memo[b] < 0) memo[b] = ((probe.brand = cols.brandTable[b]), constraintMet(probe, c)) ? 1 : 0;
        return memo[b] === 1;
      };
    }
  }
  const a = cols.attrNames.indexOf(c.attr);
  if (a < 0) return () => false; // no product has the attribute: undefined never meets a constraint
  const column = cols.attrCols[a];
  const table = cols.attrTables[a];
  const numeric = cols.attrNumeric[a];
  const memo = new Int8Array(table.length + 1).fill(-1);
  memo[0] = 0; // code 0: the product lacks the attribute
  return (i) => {
    const v = column[i];
    if (memo[v] < 0) {
      probe.attrs[c.attr] = numeric ? parseFloat(table[v - 1]) : table[v - 1];
      memo[v] = constraintMet(probe, c) ? 1 : 0;
    }
    return memo[v] === 1;
  };
}
