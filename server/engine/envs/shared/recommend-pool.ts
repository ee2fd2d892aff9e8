// The PD/SUB evaluation pool read from catalog columns (issue 13). Same candidates, same
// numbers as the product-object path in recommend.ts, without materialising a Product per
// candidate: constraints, persona utility and relevance call the very functions of
// persona.ts / recommend.ts on a reused probe holding one candidate's values, and the
// TF-IDF similarity (similarity.ts) runs over term ids with cached per-product feature bags
// and per-category document frequencies. Floating-point operations happen in the same
// order as in similarities(), so every similarity, and so every reward, is bit-identical
// (the golden test checks it).

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { Product, SearchFilters } from '../../catalog/types';
import { constraintMet, utility, type Constraint, type Persona } from './persona';

export interface ColumnEntry {
  id: string;
  s: number;
  u: number;
  sim: number;
  compatible: boolean;
  stock: number;
}

/** A product's feature bag as term ids, in the bag's insertion order (the order similarities() sums in). */
interface Bag {
  id: string;
  terms: Int32Array;
  tfs: Float64Array;
}

/** Document frequencies of one set of documents (a category, or its stride sample). */
interface IdfTable {
  /** number of documents + 1 (the reference), as in similarities() */
  n: number;
  df: Int32Array;
  /** idf of each term for a reference without that term */
  idf: Float64Array;
}

// Recently used bags, direct-mapped by product index: bounded memory at any catalog size.
const BAG_SLOTS = 1 << 17;

class FeatureSpace {
  readonly vocab = new Map<string, number>();
  private readonly slotIndex = new Int32Array(BAG_SLOTS).fill(-1);
  private readonly slotBag: (Bag | undefined)[] = new Array(BAG_SLOTS);
  /** scratch: 1 + position of each term in the current reference's bag, 0 when absent */
  refPos = new Int32Array(1024);
  readonly idfTables = new Map<string, IdfTable>();
  /** prices of whole categories, ascending */
  readonly categoryPrices = new Map<string, number[]>();
  private readonly categoryTermIds: [number, number][] = [];
  private readonly attrTermIds: Int32Array[] = [];

  constructor(private readonly catalog: ColumnarCatalog) {}

  bag(index: number): Bag {
    const slot = index & (BAG_SLOTS - 1);
    if (this.slotIndex[slot] === index) return this.slotBag[slot]!;
    // similarity.ts's featureBag(title tokens, category, department, attrs) as term ids, without
    // its strings: title tokens, then cat:, dept:, then one term per attribute in column order
    // (attrsAt's order). A repeated term adds to its tf, as the Map does, so order and counts match.
    const cols = this.catalog.cols;
    const terms: number[] = [];
    const tfs: number[] = [];
    const add = (id: number) => {
      const at = terms.indexOf(id);
      if (at >= 0) {
        tfs[at]++;
      } else {
        terms.push(id);
        tfs.push(1);
      }
    };
    for (const t of this.catalog.titleTokensAt(index)) add(this.termId(t));
    const [catTerm, deptTerm] = this.categoryTerms(cols.category[index]);
    add(catTerm);
    add(deptTerm);
    for (let a = 0; a < cols.attrNames.length; a++) {
      const v = cols.attrCols[a][index];
      if (v !== 0) add(this.attrTerm(a, v, index));
    }
    const bag = { id: this.catalog.idAt(index), terms: Int32Array.from(terms), tfs: Float64Array.from(tfs) };
    this.slotBag[slot] = bag;
    this.slotIndex[slot] = index;
    return bag;
  }

  private termId(t: string): number {
    let id = this.vocab.get(t);
    if (id === undefined) this.vocab.set(t, (id = this.vocab.size));
    return id;
  }

  /** Term ids of `cat:<category>` and `dept:<department>` per category code. */
  private categoryTerms(code: number): [number, number] {
    let pair = this.categoryTermIds[code];
    if (!pair) {
      const category = this.catalog.cols.categoryTable[code];
      const slash = category.indexOf('/');
      const department = slash < 0 ? category : category.slice(0, slash);
      pair = this.categoryTermIds[code] = [
        this.termId(`cat:${category.toLowerCase()}`),
        this.termId(`dept:${department.toLowerCase()}`),
      ];
    }
    return pair;
  }

  /** Term id of `<attr>=<value>` for attribute column a, value code v (the value as attrsAt gives it). */
  private attrTerm(a: number, v: number, index: number): number {
    const cols = this.catalog.cols;
    const ids = (this.attrTermIds[a] ??= new Int32Array(cols.attrTables[a].length + 1).fill(-1));
    if (ids[v] < 0) {
      const value = this.catalog.attrsAt(index)[cols.attrNames[a]];
      ids[v] = this.termId(`${cols.attrNames[a]}=${String(value).toLowerCase()}`);
    }
    return ids[v];
  }

  /** Document frequencies over a fixed document set, cached under `key`. */
  idfTable(key: string, docs: ArrayLike<number>): IdfTable {
    let table = this.idfTables.get(key);
    if (table) return table;
    const bags = Array.from(docs, (i) => this.bag(i)); // first: bags may add terms to the vocabulary
    const df = new Int32Array(this.vocab.size);
    for (const bag of bags) for (const t of bag.terms) df[t]++;
    const n = docs.length + 1;
    const idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) idf[t] = idfOf(n, df[t], false);
    table = { n, df, idf };
    if (this.idfTables.size > 4096) this.idfTables.clear();
    this.idfTables.set(key, table);
    return table;
  }
}

/** similarity.ts's smoothed idf, the same expression. */
const idfOf = (n: number, df: number, inReference: boolean) => Math.log((1 + n) / (1 + df + (inReference ? 1 : 0))) + 1;

const SPACES = new WeakMap<ColumnarCatalog, FeatureSpace>();
function spaceOf(catalog: ColumnarCatalog): FeatureSpace {
  let space = SPACES.get(catalog);
  if (!space) SPACES.set(catalog, (space = new FeatureSpace(catalog)));
  return space;
}

// Stride samples of large categories, per catalog and category.
const SAMPLES = new WeakMap<ColumnarCatalog, Map<string, Int32Array>>();
function strideSample(catalog: ColumnarCatalog, category: string, all: readonly number[], size: number): Int32Array {
  let byCategory = SAMPLES.get(catalog);
  if (!byCategory) SAMPLES.set(catalog, (byCategory = new Map()));
  let sample = byCategory.get(category);
  if (!sample) {
    const stride = all.length / size;
    byCategory.set(category, (sample = Int32Array.from({ length: size }, (_, j) => all[Math.floor(j * stride)])));
  }
  return sample;
}

export interface ColumnCandidates {
  /** Distinct brands of the candidates, sorted. */
  brands(): string[];
  /** The candidates' prices, ascending (only percentiles are taken). */
  prices(): number[];
  /** s, u, sim and compatibility of every candidate not excluded. */
  evaluate(
    constraints: readonly Constraint[],
    persona: Persona,
    compatibility: readonly string[],
    excludeIds: readonly string[],
  ): ColumnEntry[];
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
  const space = spaceOf(catalog);
  const all = catalog.indicesInCategory(reference.category);
  const refIndex = catalog.indexOf(reference.id);
  let indices: ArrayLike<number>;
  let idf: IdfTable;
  if (all.length <= scanLimit) {
    indices = all;
    idf = space.idfTable(reference.category, all);
  } else {
    const seen = new Set<number>();
    const list: number[] = [];
    const add = (i: number) => {
      if (i < 0 || seen.has(i)) return;
      seen.add(i);
      list.push(i);
    };
    for (const hit of catalog.search({ query: '', filters: filters(), topK: fullLimit }))
      add(catalog.indexOf(hit.productId));
    const sample = strideSample(catalog, reference.category, all, scanLimit);
    for (const i of sample) add(i);
    add(refIndex);
    indices = list;
    idf = space.idfTable(`${reference.category}#sample`, sample);
  }
  const cols = catalog.cols;

  return {
    brands() {
      const codes = new Set<number>();
      for (let k = 0; k < indices.length; k++) codes.add(cols.brand[indices[k]]);
      return [...new Set([...codes].map((b) => cols.brandTable[b]))].sort();
    },
    prices() {
      const sorted = () => Array.from(indices, (i) => catalog.priceAt(i)).sort((a, b) => a - b);
      if (indices !== all) return sorted();
      let prices = space.categoryPrices.get(reference.category);
      if (!prices) space.categoryPrices.set(reference.category, (prices = sorted()));
      return prices;
    },
    evaluate(constraints, persona, compatibility, excludeIds) {
      const sims = similaritiesTo(space, refIndex, indices, idf);
      const excluded = new Set(excludeIds.map((id) => catalog.indexOf(id)));
      const checks = constraints.map((c) => constraintCheck(catalog, c));
      const compat = compatibility.map((a) => checks[constraints.findIndex((c) => c.attr === a)]);
      // One reused product-shaped probe: persona.ts reads only these fields.
      const probe = { price: 0, rating: 0, shipDays: 0, brand: '', attrs: {} } as unknown as Product;
      const out: ColumnEntry[] = [];
      for (let k = 0; k < indices.length; k++) {
        const i = indices[k];
        if (excluded.has(i)) continue;
        let met = 0;
        for (const check of checks) if (check(i)) met++;
        const s = constraints.length === 0 ? 1 : met / constraints.length; // satisfaction() of persona.ts
        probe.price = cols.priceCents[i] / 100;
        probe.rating = cols.rating10[i] / 10;
        probe.shipDays = cols.shipDays[i];
        probe.brand = cols.brandTable[cols.brand[i]];
        const u = utility(probe, persona, sims[k]);
        out.push({
          id: space.bag(i).id,
          s,
          u,
          sim: sims[k],
          compatible: compat.every((check) => check(i)),
          stock: cols.stock[i],
        });
      }
      return out;
    },
  };
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

/** similarities() of similarity.ts over product indices, with the idf table of the documents. */
function similaritiesTo(
  space: FeatureSpace,
  refIndex: number,
  indices: ArrayLike<number>,
  table: IdfTable,
): Float64Array {
  const ref = space.bag(refIndex);
  const bags: Bag[] = new Array(indices.length);
  for (let k = 0; k < indices.length; k++) bags[k] = space.bag(indices[k]);
  const { n, df, idf } = table;
  if (space.refPos.length < space.vocab.size)
    space.refPos = new Int32Array(Math.max(space.vocab.size, 2 * space.refPos.length));
  const refPos = space.refPos;
  const refIdf = new Float64Array(ref.terms.length);
  const refW = new Float64Array(ref.terms.length);
  let refSq = 0;
  for (let j = 0; j < ref.terms.length; j++) {
    const t = ref.terms[j];
    refIdf[j] = idfOf(n, t < df.length ? df[t] : 0, true);
    const x = ref.tfs[j] * refIdf[j];
    refW[j] = x;
    refSq += x * x;
    refPos[t] = j + 1;
  }
  const refNorm = Math.sqrt(refSq);
  const outsideIdf = idfOf(n, 0, false); // a term no document of the table has
  const sims = new Float64Array(indices.length);
  for (let k = 0; k < bags.length; k++) {
    const { terms, tfs } = bags[k];
    let dot = 0;
    let sq = 0;
    for (let j = 0; j < terms.length; j++) {
      const t = terms[j];
      const p = refPos[t];
      const x = tfs[j] * (p > 0 ? refIdf[p - 1] : t < idf.length ? idf[t] : outsideIdf);
      sq += x * x;
      if (p > 0) dot += x * refW[p - 1];
    }
    sims[k] = refNorm === 0 || sq === 0 ? 0 : Math.min(1, Math.max(0, dot / (refNorm * Math.sqrt(sq))));
  }
  for (let j = 0; j < ref.terms.length; j++) refPos[ref.terms[j]] = 0;
  return sims;
}
