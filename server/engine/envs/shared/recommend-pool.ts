// The PD/SUB evaluation pool read from catalog columns (issue 13). Same candidates, same
// numbers, same pool as the product-object path in recommend.ts, without materialising a
// Product per candidate: constraints are checked by masks over the columns and the utility is
// split into a part without similarity plus its weighted similarity, both written out to
// match persona.ts's constraintMet and utilityOf term for term (keep them in step); the TF-IDF
// similarity (defined in test/similarity.ts) runs over the term-id bags and per-category document
// frequencies of pool-bags.ts, and the pool is chosen by selection over typed arrays and kept as
// columns (evaluation-pool.ts).
// Floating-point operations happen in the same order as in similarities(), so every
// similarity, and so every reward, is bit-identical (pool-equivalence.test.ts, golden test).

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { Product, SearchFilters } from '../../catalog/types';
import { clip01, constraintMet, isPreferredBrand, utilityOf, type Constraint, type Persona } from './persona';
import { bagStoreOf, type Candidates } from './pool-bags';
import { attrCodes, largeCandidates } from './pool-candidates';
import { filterRows } from './pool-columns';
import { poolScratch, Slot } from './pool-scratch';
import { positionsByRow } from './pool-positions';
import { EvaluationPool } from './evaluation-pool';
import { mayEnterPool, orderByRelevance, selectTop } from './pool-select';

/**
 * relevanceOf of recommend.ts for one candidate. It must not decrease when u or sim grows (a sum or
 * product with a larger term is not smaller, in floating point too): the pool's bounds rely on it.
 */
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
  ): EvaluationPool;
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
    const found = filterRows(rows, cols.category[refIndex], filters(), fullLimit, category!.rowLists!);
    if (found) for (const row of found) take(row);
    else for (const i of catalog.filterIndices(filters(), fullLimit)) take(rowIn(all, i));
    take(rowIn(all, refIndex));
    for (const row of out) mark[row] = 0;
    return out;
  }

  let prices: ArrayLike<number> | null = null; // a large category's merge, kept: the spec reads two percentiles
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
      return (prices ??= mergeSorted(category.docPrices, c.price.slice(category.docs.length).sort()));
    },
    pool(constraints, persona, compatibility, excludeIds, relevance, discovery, size) {
      const indices = c.index;
      const n = indices.length;
      const scratch = poolScratch; // typed arrays reused by every pool: each written before it is read
      const skip = excludedPositions(catalog, indices, excludeIds);
      // per candidate: how many constraints it meets, and whether it meets every compatibility one
      const masks = constraints.map((constraint, j) => constraintMask(catalog, c, constraint, scratch.mask(j, n)));
      const met = scratch.u8(Slot.Met, n).fill(0, 0, n);
      for (const mask of masks) for (let k = 0; k < n; k++) met[k] += mask[k];
      const compatible = scratch.u8(Slot.Compatible, n).fill(1, 0, n);
      for (const a of compatibility) {
        const j = constraints.findIndex((x) => x.attr === a);
        if (j < 0) throw new Error(`evaluation pool: compatibility attribute "${a}" has no constraint`);
        for (let k = 0; k < n; k++) compatible[k] &= masks[j][k];
      }
      const brands = cols.brandTable.length;
      const preferred = scratch.i8(Slot.Preferred, brands).fill(-1, 0, brands); // isPreferredBrand per brand code
      const at = scratch.i32(Slot.At, n); // candidate position k of each scored entry
      const s = scratch.f64(Slot.S, n);
      const u = scratch.f64(Slot.U, n);
      // utilityOf(…, 0): utilityOf(…, sim) adds w_sim·clip01(sim) to it last, the same floats in the same order
      const u0 = scratch.f64(Slot.U0, n);
      const wSim = persona.weights.similarity;
      // the entries' sort keys with the similarity at 0 and at 1 (see mayEnterPool): discovery's (s, u);
      // substitute's relevance (minor 0), where an incompatible candidate's is 0 whatever its similarity.
      // A substitute pool over a category's own copy (pool.local: up to 6,000 products, every category
      // at 100k) scores every candidate: its bags are few and in cache, and the bounds cost about what
      // they save; at 2M a large category's bags are spread over megabytes and each cosine misses.
      // With no more candidates than the pool holds every one enters it (mayEnterPool would say so): no bounds.
      const bounded = (discovery || category.local === null) && n > size;
      const bounds = {
        major: scratch.f64(Slot.BoundsMajor, bounded ? 2 * n : 0),
        minor: scratch.f64(Slot.BoundsMinor, bounded ? 2 * n : 0),
      };
      let m = 0;
      for (let k = 0; k < n; k++) {
        if (skip !== null && skip[k]) continue;
        const sk = constraints.length === 0 ? 1 : met[k] / constraints.length; // satisfaction() of persona.ts
        const b = c.brand[k];
        if (preferred[b] < 0) preferred[b] = isPreferredBrand(cols.brandTable[b], persona) ? 1 : 0;
        u0[m] = utilityOf(c.price[k], c.rating[k], c.shipDays[k], preferred[b] === 1, persona, 0);
        if (bounded && discovery) {
          bounds.major[2 * m] = bounds.major[2 * m + 1] = sk;
          bounds.minor[2 * m] = u0[m];
          bounds.minor[2 * m + 1] = u0[m] + wSim * clip01(1);
        } else if (bounded) {
          bounds.major[2 * m] = relevance(sk, u0[m], 0, compatible[k] === 1);
          bounds.major[2 * m + 1] = relevance(sk, u0[m] + wSim * clip01(1), 1, compatible[k] === 1);
          bounds.minor[2 * m] = bounds.minor[2 * m + 1] = 0; // the scratch holds an older pool's values
        }
        at[m] = k;
        s[m] = sk;
        m++;
      }
      // only entries that may enter the pool need their similarity (and so their bag); all do when
      // nothing was bounded or excluded (may and need null)
      const may = bounded ? mayEnterPool(bounds, m, size) : null;
      let need: Uint8Array | undefined;
      if (may !== null || m < n) {
        need = scratch.u8(Slot.Need, n).fill(0, 0, n);
        for (let e = 0; e < m; e++) need[at[e]] = may === null ? 1 : may[e];
      }
      const sims = store.similarities(category, refIndex, c, need, scratch.f64(Slot.Sims, n));
      let kept = 0;
      for (let e = 0; e < m; e++) {
        if (may !== null && !may[e]) continue;
        const k = at[e];
        at[kept] = k;
        s[kept] = s[e];
        u[kept] = u0[e] + wSim * clip01(sims[k]);
        kept++;
      }
      m = kept;
      // relevance when first compared (discovery compares it only on ties in s and u)
      const rel = scratch.f64(Slot.Rel, m).fill(NaN, 0, m);
      const relOf = (e: number) =>
        Number.isNaN(rel[e]) ? (rel[e] = relevance(s[e], u[e], sims[at[e]], compatible[at[e]] === 1)) : rel[e];
      // ties in relevance are broken by id, as recommend.ts does
      // (the others' ids are not kept: at 2M products a reset's few hundred are new ones, and a
      // cache of every id met grows towards the whole catalog's)
      const idOf = (e: number) => c.ids[at[e]] ?? catalog.idAt(indices[at[e]]);
      const byId = catalog.text.idsAscend
        ? (a: number, b: number) => indices[at[a]] - indices[at[b]]
        : (a: number, b: number) => compareIds(idOf(a), idOf(b));
      const byRel = (a: number, b: number) => relOf(b) - relOf(a) || byId(a, b);
      const order: number[] = new Array(m);
      for (let e = 0; e < m; e++) order[e] = e;
      if (m > size) selectTop(order, size, discovery ? (a, b) => s[b] - s[a] || u[b] - u[a] || byRel(a, b) : byRel);
      if (order.length > size) order.length = size;
      // the pool's order; ties by index where ids ascend with it, else by the id's rank among the pool's
      const t = order.length;
      const ids = catalog.text.idsAscend ? null : order.map(idOf).sort(compareIds);
      const idRank = ids && new Map(ids.map((id, r) => [id, r]));
      const rels = scratch.f64(Slot.Rels, t);
      const keys = scratch.f64(Slot.Keys, t);
      for (let j = 0; j < t; j++) {
        rels[j] = relOf(order[j]);
        keys[j] = idRank ? idRank.get(idOf(order[j]))! : indices[at[order[j]]];
      }
      const sorted = orderByRelevance(rels, keys, t, scratch.i32(Slot.SortFrom, t), scratch.i32(Slot.SortTo, t));
      const poolIds: string[] = new Array(t);
      const values = new Float64Array(4 * t);
      const stocks = new Uint16Array(t);
      const rowOfEntry = scratch.i32(Slot.EntryRows, t); // the candidate position of each entry
      for (let j = 0; j < t; j++) {
        const e = order[sorted[j]];
        const k = (rowOfEntry[j] = at[e]);
        poolIds[j] = idOf(e);
        values[4 * j] = s[e];
        values[4 * j + 1] = u[e];
        values[4 * j + 2] = sims[k];
        values[4 * j + 3] = rel[e];
        stocks[j] = c.stock[k];
      }
      // a category's own copy lives as long as the catalog: its id → row Map is built once (pool-positions.ts)
      const positions = c === category.local ? positionsByRow(c, rowOfEntry, t) : null;
      return new EvaluationPool(poolIds, values, stocks, positions);
    },
  };
}

/** Positions of `indices` holding a product of excludeIds (1; the scratch's Skip array), or null when none is there. */
function excludedPositions(
  catalog: ColumnarCatalog,
  indices: ArrayLike<number>,
  excludeIds: readonly string[],
): Uint8Array | null {
  let skip: Uint8Array | null = null;
  const list = indices as unknown as { indexOf(x: number, from?: number): number };
  for (const id of excludeIds) {
    const i = catalog.indexOf(id);
    for (let k = list.indexOf(i); k >= 0; k = list.indexOf(i, k + 1))
      (skip ??= poolScratch.u8(Slot.Skip, indices.length).fill(0, 0, indices.length))[k] = 1;
  }
  return skip;
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
 * Per candidate, 1 when it meets a constraint: constraintMet on a probe holding its value. Values
 * from a string table (brand, attributes) are judged once per table entry.
 */
function constraintMask(catalog: ColumnarCatalog, c: Candidates, constraint: Constraint, mask: Uint8Array): Uint8Array {
  const cols = catalog.cols;
  const n = c.index.length;
  const probe = {
    price: 0,
    rating: 0,
    shipDays: 0,
    brand: '',
    attrs: {} as Record<string, string | number>,
  } as unknown as Product;
  const byValue = (values: ArrayLike<number>, set: (v: number) => void) => {
    if (constraint.op === 'eq') {
      for (let k = 0; k < n; k++) mask[k] = (set(values[k]), constraintMet(probe, constraint)) ? 1 : 0;
      return mask;
    }
    // constraintMet's numeric comparison written out, its bound computed once (the same float)
    if (constraint.op === 'max') {
      const bound = Number(constraint.value) + 1e-9;
      for (let k = 0; k < n; k++) mask[k] = Number.isFinite(values[k]) && values[k] <= bound ? 1 : 0;
    } else {
      const bound = Number(constraint.value) - 1e-9;
      for (let k = 0; k < n; k++) mask[k] = Number.isFinite(values[k]) && values[k] >= bound ? 1 : 0;
    }
    return mask;
  };
  const byCode = (codes: ArrayLike<number>, tableSize: number, set: (v: number) => void, lacking = -1) => {
    const memo = poolScratch.i8(Slot.Memo, tableSize).fill(-1, 0, tableSize);
    if (lacking >= 0) memo[lacking] = 0; // the product lacks the attribute: undefined never meets a constraint
    for (let k = 0; k < n; k++) {
      const v = codes[k];
      if (memo[v] < 0) memo[v] = (set(v), constraintMet(probe, constraint)) ? 1 : 0;
      mask[k] = memo[v];
    }
    return mask;
  };
  switch (constraint.attr) {
    case 'price':
      return byValue(c.price, (v) => (probe.price = v));
    case 'rating':
      return byValue(c.rating, (v) => (probe.rating = v));
    case 'ship_days':
      return byValue(c.shipDays, (v) => (probe.shipDays = v));
    case 'brand':
      return byCode(c.brand, cols.brandTable.length, (v) => (probe.brand = cols.brandTable[v]));
  }
  const a = cols.attrNames.indexOf(constraint.attr);
  if (a < 0) return mask.fill(0, 0, n); // no product has the attribute: undefined never meets a constraint
  const table = cols.attrTables[a];
  const numeric = cols.attrNumeric[a];
  const set = (v: number) => (probe.attrs[constraint.attr] = numeric ? parseFloat(table[v - 1]) : table[v - 1]);
  return byCode(attrCodes(c, a), table.length + 1, set, 0);
}
