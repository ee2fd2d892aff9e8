// Feature bags and per-category document frequencies for the evaluation pool (issue 13),
// built once per catalog on the first pool: every category's idf documents (the whole
// category, or its stride sample when it is larger than the scan limit), their bags as term
// ids in one flat store, the idf table, and for whole categories the sorted prices and the
// brands. A reset then reads these instead of building ~1,500 bags in its category first.
//
// A bag is similarity.ts's featureBag as term ids, in its insertion order (title tokens,
// cat:, dept:, one term per attribute in column order) with integer term counts, so the
// similarity sums the same floats in the same order (bit-identical, pool-equivalence.test.ts).
// Memory is bounded: categories up to STORE_ALL_LIMIT products keep every product's bag, larger
// ones their sample only (at 2M products, 75 × 1,500 bags); other products' bags are built per
// call into the store's tail and dropped after it.

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';

/** Document frequencies of one set of documents (a category, or its stride sample). */
export interface IdfTable {
  /** number of documents + 1 (the reference), as in similarities() */
  n: number;
  df: Int32Array;
  /** idf of each term for a reference without that term */
  idf: Float64Array;
}

export interface CategoryPool {
  /** indicesInCategory(category) */
  all: readonly number[];
  /** all.length ≤ scan limit: the candidates are the whole category */
  whole: boolean;
  /** the documents idf is computed over: all, or the stride sample */
  docs: ArrayLike<number>;
  idf: IdfTable;
  /** whole categories: every price ascending, and the distinct brands sorted */
  sortedPrices: number[] | null;
  brands: string[] | null;
}

/** Categories up to this size keep every product's bag (at 100k products: all of them). */
const STORE_ALL_LIMIT = 6000;

/** similarity.ts's smoothed idf, the same expression. */
export const idfOf = (n: number, df: number, inReference: boolean) =>
  Math.log((1 + n) / (1 + df + (inReference ? 1 : 0))) + 1;

export class BagStore {
  readonly vocab = new Map<string, number>();
  /** offset of product i's bag in terms/tfs, or -1 when not stored */
  readonly start: Int32Array;
  readonly length: Uint16Array;
  terms = new Int32Array(1 << 16);
  tfs = new Uint16Array(1 << 16);
  used = 0;
  /** scratch: 1 + position of each term in the current reference's bag, 0 when absent */
  refPos = new Int32Array(1024);
  /** scratch: candidate marks for de-duplication, all 0 between calls */
  readonly marks: Uint8Array;
  private readonly pools = new Map<string, CategoryPool>();
  private readonly categoryTermIds: [number, number][] = [];
  private readonly attrTermIds: Int32Array[] = [];

  constructor(
    readonly catalog: ColumnarCatalog,
    scanLimit: number,
  ) {
    this.start = new Int32Array(catalog.size).fill(-1);
    this.length = new Uint16Array(catalog.size);
    this.marks = new Uint8Array(catalog.size);
    for (const category of catalog.categories()) this.pools.set(category, this.buildPool(category, scanLimit));
  }

  pool(category: string): CategoryPool | undefined {
    return this.pools.get(category);
  }

  private buildPool(category: string, scanLimit: number): CategoryPool {
    const catalog = this.catalog;
    const all = catalog.indicesInCategory(category);
    const whole = all.length <= scanLimit;
    let docs: ArrayLike<number> = all;
    if (!whole) {
      const stride = all.length / scanLimit;
      docs = Int32Array.from({ length: scanLimit }, (_, j) => all[Math.floor(j * stride)]);
    }
    const stored = all.length <= STORE_ALL_LIMIT ? all : docs;
    for (let k = 0; k < stored.length; k++) this.store(stored[k]);
    const df = new Int32Array(this.vocab.size);
    for (let k = 0; k < docs.length; k++) {
      const at = this.start[docs[k]];
      for (let j = at; j < at + this.length[docs[k]]; j++) df[this.terms[j]]++;
    }
    const n = docs.length + 1;
    const idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) idf[t] = idfOf(n, df[t], false);
    let sortedPrices: number[] | null = null;
    let brands: string[] | null = null;
    if (whole) {
      sortedPrices = all.map((i) => catalog.priceAt(i)).sort((a, b) => a - b);
      brands = distinctBrands(catalog, all);
    }
    return { all, whole, docs, idf: { n, df, idf }, sortedPrices, brands };
  }

  /** Store product i's bag (if not stored yet) and return its offset. */
  store(index: number): number {
    if (this.start[index] >= 0) return this.start[index];
    const at = this.used;
    const count = this.writeBag(index, at);
    this.start[index] = at;
    this.length[index] = count;
    this.used = at + count;
    return at;
  }

  /** Writes the bag at offset `at` (growing the arrays), returns its term count. */
  private writeBag(index: number, at: number): number {
    const cols = this.catalog.cols;
    let count = 0;
    const add = (term: number) => {
      for (let j = at; j < at + count; j++)
        if (this.terms[j] === term) {
          this.tfs[j]++;
          return;
        }
      if (at + count >= this.terms.length) this.grow();
      this.terms[at + count] = term;
      this.tfs[at + count] = 1;
      count++;
    };
    for (const t of this.catalog.titleTokensAt(index)) add(this.termId(t));
    const [catTerm, deptTerm] = this.categoryTerms(cols.category[index]);
    add(catTerm);
    add(deptTerm);
    for (let a = 0; a < cols.attrNames.length; a++) {
      const v = cols.attrCols[a][index];
      if (v !== 0) add(this.attrTerm(a, v, index));
    }
    return count;
  }

  private grow(): void {
    const terms = new Int32Array(this.terms.length * 2);
    terms.set(this.terms);
    const tfs = new Uint16Array(this.tfs.length * 2);
    tfs.set(this.tfs);
    this.terms = terms;
    this.tfs = tfs;
  }

  /** Bags for products not stored, valid until release(): they go after the stored ones. */
  transient(indices: ArrayLike<number>): number[] {
    const added: number[] = [];
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k];
      if (this.start[i] < 0) {
        this.store(i);
        added.push(i);
      }
    }
    return added;
  }

  /** Drops the bags transient() added (the last ones stored). */
  release(added: readonly number[]): void {
    if (added.length === 0) return;
    this.used = this.start[added[0]];
    for (const i of added) this.start[i] = -1;
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
}

/** Distinct brand names of some products, sorted. */
export function distinctBrands(catalog: ColumnarCatalog, indices: ArrayLike<number>): string[] {
  const cols = catalog.cols;
  const seen = new Uint8Array(cols.brandTable.length);
  const names = new Set<string>();
  for (let k = 0; k < indices.length; k++) {
    const b = cols.brand[indices[k]];
    if (!seen[b]) {
      seen[b] = 1;
      names.add(cols.brandTable[b]);
    }
  }
  return [...names].sort();
}

const STORES = new WeakMap<ColumnarCatalog, BagStore>();

/** The catalog's bag store, built on first use (tens of ms at 100k products). */
export function bagStoreOf(catalog: ColumnarCatalog, scanLimit: number): BagStore {
  let store = STORES.get(catalog);
  if (!store) STORES.set(catalog, (store = new BagStore(catalog, scanLimit)));
  return store;
}
