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
import { bagStoreOf, type Candidates } from './pool-bags';
import { attrCodes, largeCandidates } from './pool-candidates';
import { filterRows } from './pool-columns';

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
  const cols = catalog.cols;
  const c = category.whole ? store.wholeCandidates(category) : largeCandidates(category, extraRows());

  /**
   * A large category's candidates besides its stride sample, as rows of category.all: the
   * products the filtered search finds and the reference. The pool does not depend on the
   * candidates' order (a strict order by id breaks every tie), only on which they are.
   */
  function extraRows(): number[] {
    const rows = store.rowsOf(category!);
    const mark = category!.docMark!; // 1 at the sample's rows; 2 marks a row taken here, cleared below
    const all = category!.all;
    const out: number[] = [];
    const take = (row: number) => {
      if (row < 0) throw new Error(`evaluation pool: a candidate outside category "${reference.category}"`);
      if (mark[row] !== 0) return;
      mark[row] = 2;
      out.push(row);
    };
    const found = filterRows(rows, cols.category[refIndex], filters(), fullLimit);
    if (found) for (const row of found) take(row);
    else for (const i of catalog.filterIndices(filters(), fullLimit)) take(rowIn(all, i));
    take(rowIn(all, refIndex));
    for (const row of out) mark[row] = 0;
    return out;
  }

  return {
    brands() {
      if (category.brands) return category.brands;
      const known = category.docBrands!;
      let names: Set<string> | null = null;
      for (let k = category.docs.length; k < c.index.length; k++)
        if (!known.codes[c.brand[k]]) (names ??= new Set(known.names)).add(cols.brandTable[c.brand[k]]);
      return names ? [...names].sort() : known.names;
    },
    sortedPrices() {
      if (category.sortedPrices) return category.sortedPrices;
      return mergeSorted(category.docPrices, c.price.slice(category.docs.length).sort());
    },
    pool(constraints, persona, compatibility, excludeIds, relevance, discovery, size) {
      const indices = c.index;
      const excluded = new Set(excludeIds.map((id) => catalog.indexOf(id)));
      const checks = constraints.map((constraint) => constraintCheck(catalog, c, constraint));
      const compat = compatibility.map((a) => checks[constraints.findIndex((x) => x.attr === a)]);
      const preferred = new Int8Array(cols.brandTable.length).fill(-1); // isPreferredBrand per brand code
      const n = indices.length;
      const at = new Int32Array(n); // candidate position k of each scored entry
      const s = new Float64Array(n);
      const u = new Float64Array(n);
      const compatibleAt = new Uint8Array(n);
      // discovery: the entries' sort keys (s, u) with the similarity at 0 and at 1 (see mayEnterPool);
      // substitute pools leave few out (relevance spans λ_sim) and score every candidate
      const bounds = { major: new Float64Array(discovery ? 2 * n : 0), minor: new Float64Array(discovery ? 2 * n : 0) };
      const utility = (k: number, sim: number) =>
        utilityOf(c.price[k], c.rating[k], c.shipDays[k], preferred[c.brand[k]] === 1, persona, sim);
      let m = 0;
      for (let k = 0; k < n; k++) {
        if (excluded.size > 0 && excluded.has(indices[k])) continue;
        let met = 0;
        for (let j = 0; j < checks.length; j++) if (checks[j](k)) met++;
        const sk = constraints.length === 0 ? 1 : met / constraints.length; // satisfaction() of persona.ts
        const b = c.brand[k];
        if (preferred[b] < 0) preferred[b] = isPreferredBrand(cols.brandTable[b], persona) ? 1 : 0;
        let compatible = true;
        for (let j = 0; j < compat.length && compatible; j++) compatible = compat[j](k);
        if (discovery) {
          bounds.major[2 * m] = bounds.major[2 * m + 1] = sk;
          bounds.minor[2 * m] = utility(k, 0);
          bounds.minor[2 * m + 1] = utility(k, 1);
        }
        at[m] = k;
        s[m] = sk;
        compatibleAt[m] = compatible ? 1 : 0;
        m++;
      }
      // only entries that may enter the pool need their similarity (and so their bag)
      const may = discovery ? mayEnterPool(bounds, m, size) : new Uint8Array(m).fill(1);
      const need = new Uint8Array(n);
      for (let e = 0; e < m; e++) need[at[e]] = may[e];
      const sims = store.similarities(category, refIndex, c, need);
      let kept = 0;
      for (let e = 0; e < m; e++) {
        if (!may[e]) continue;
        const k = at[e];
        at[kept] = k;
        s[kept] = s[e];
        u[kept] = utility(k, sims[k]);
        compatibleAt[kept] = compatibleAt[e];
        kept++;
      }
      m = kept;
      // relevance when first compared (discovery compares it only on ties in s and u)
      const rel = new Float64Array(m).fill(NaN);
      const relOf = (e: number) =>
        Number.isNaN(rel[e]) ? (rel[e] = relevance(s[e], u[e], sims[at[e]], compatibleAt[e] === 1)) : rel[e];
      // ties in relevance are broken by id, as recommend.ts does
      const idOf = (e: number) => c.ids[at[e]] ?? store.idAt(indices[at[e]]);
      const byId = catalog.text.idsAscend
        ? (a: number, b: number) => indices[at[a]] - indices[at[b]]
        : (a: number, b: number) => compareIds(idOf(a), idOf(b));
      const byRel = (a: number, b: number) => relOf(b) - relOf(a) || byId(a, b);
      const order: number[] = new Array(m);
      for (let e = 0; e < m; e++) order[e] = e;
      if (m > size) selectTop(order, size, discovery ? (a, b) => s[b] - s[a] || u[b] - u[a] || byRel(a, b) : byRel);
      if (order.length > size) order.length = size;
      // the pool's own order: every relevance of it computed once, compared from an array
      for (const e of order) relOf(e);
      order.sort((a, b) => rel[b] - rel[a] || byId(a, b));
      return order.map((e) => {
        const k = at[e];
        return { id: idOf(e), s: s[e], u: u[e], sim: sims[k], rel: rel[e], stock: c.stock[k] };
      });
    },
  };
}

/**
 * Which of m pool entries may enter the pool of `size`, from bounds on their sort keys: entry e's
 * keys (major, minor), compared major first, lie between (major[2e], minor[2e]) — its similarity 0
 * — and (major[2e + 1], minor[2e + 1]) — similarity 1 (utility and relevance do not decrease
 * with the similarity, also in floating point: a sum or product with a larger term is not
 * smaller). At least `size` entries are at or above the size-th best lower bound, so an entry
 * whose upper bound is below it cannot be in the pool, whatever the similarities and ids.
 */
export function mayEnterPool(
  bounds: { major: Float64Array; minor: Float64Array },
  m: number,
  size: number,
): Uint8Array {
  const may = new Uint8Array(m).fill(1);
  if (m <= size) return may;
  const { major, minor } = bounds;
  const order: number[] = new Array(m);
  for (let e = 0; e < m; e++) order[e] = 2 * e;
  const byLowerBound = (a: number, b: number) => major[b] - major[a] || minor[b] - minor[a] || a - b;
  selectTop(order, size, byLowerBound);
  let worst = order[0];
  for (let j = 1; j < size; j++) if (byLowerBound(worst, order[j]) < 0) worst = order[j];
  for (let e = 0; e < m; e++) {
    const hi = 2 * e + 1;
    if (major[hi] < major[worst] || (major[hi] === major[worst] && minor[hi] < minor[worst])) may[e] = 0;
  }
  return may;
}

/** The row of product i in a category's ascending index list, -1 when it is not there. */
function rowIn(all: readonly number[], i: number): number {
  if (all.length === 0) return -1;
  let lo = 0;
  let hi = all.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return all[lo] === i ? lo : -1;
}

function mergeSorted(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) out[k] = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
  return out;
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
 * Whether the candidate at position k meets a constraint: constraintMet on a probe holding its
 * value. Values from a string table (brand, attributes) are judged once per table entry.
 */
function constraintCheck(catalog: ColumnarCatalog, c: Candidates, constraint: Constraint): (k: number) => boolean {
  const cols = catalog.cols;
  const probe = {
    price: 0,
    rating: 0,
    shipDays: 0,
    brand: '',
    attrs: {} as Record<string, string | number>,
  } as unknown as Product;
  switch (constraint.attr) {
    case 'price':
      return (k) => ((probe.price = c.price[k]), constraintMet(probe, constraint));
    case 'rating':
      return (k) => ((probe.rating = c.rating[k]), constraintMet(probe, constraint));
    case 'ship_days':
      return (k) => ((probe.shipDays = c.shipDays[k]), constraintMet(probe, constraint));
    case 'brand': {
      const memo = new Int8Array(cols.brandTable.length).fill(-1);
      return (k) => {
        const b = c.brand[k];
        if (memo[b] < 0) memo[b] = ((probe.brand = cols.brandTable[b]), constraintMet(probe, constraint)) ? 1 : 0;
        return memo[b] === 1;
      };
    }
  }
  const a = cols.attrNames.indexOf(constraint.attr);
  if (a < 0) return () => false; // no product has the attribute: undefined never meets a constraint
  const codes = attrCodes(c, a);
  const table = cols.attrTables[a];
  const numeric = cols.attrNumeric[a];
  const memo = new Int8Array(table.length + 1).fill(-1);
  memo[0] = 0; // code 0: the product lacks the attribute
  return (k) => {
    const v = codes[k];
    if (memo[v] < 0) {
      probe.attrs[constraint.attr] = numeric ? parseFloat(table[v - 1]) : table[v - 1];
      memo[v] = constraintMet(probe, constraint) ? 1 : 0;
    }
    return memo[v] === 1;
  };
}
