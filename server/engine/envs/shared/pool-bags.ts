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
  /** this pool's number in the store (the home of the bags it stored) */
  readonly number: number;
  /** indicesInCategory(category) */
  all: readonly number[];
  /** all.length ≤ scan limit: the candidates are the whole category */
  whole: boolean;
  /** the documents idf is computed over: all, or the stride sample */
  docs: ArrayLike<number>;
  /** the category's own term ids (small arrays below stay in cache); terms met later are appended */
  vocab: Map<string, number>;
  idf: IdfTable;
  /** whole categories: every price ascending, and the distinct brands sorted */
  sortedPrices: number[] | null;
  brands: string[] | null;
  /** the documents' prices ascending (large categories: the candidates' prices are these and a few more) */
  docPrices: Float64Array;
  /** the values of `all` side by side (categories whose bags are all stored here), else null */
  local: Candidates | null;
}

/**
 * Candidates' values by position, copied next to each other: a category's products are spread
 * over the whole catalog, and reading ten columns at scattered indices costs a cache miss each.
 */
export interface Candidates {
  /** product index per position */
  index: ArrayLike<number>;
  price: Float64Array;
  rating: Float64Array;
  shipDays: Uint8Array;
  brand: Int32Array;
  stock: Uint16Array;
  /** bag offset and length per position (stored bags only) */
  bagAt: Int32Array;
  bagLen: Uint16Array;
  /** attribute codes per position, copied on first use */
  attrs: (Int32Array | undefined)[];
}

/** Bags written between two pauses of a build in slices (tens of ms on a quiet machine). */
const BAGS_PER_SLICE = 250;

/** Categories up to this size keep every product's bag (at 100k products: all of them). */
const STORE_ALL_LIMIT = 6000;

/** similarity.ts's smoothed idf, the same expression. */
export const idfOf = (n: number, df: number, inReference: boolean) =>
  Math.log((1 + n) / (1 + df + (inReference ? 1 : 0))) + 1;

export class BagStore {
  /** offset of product i's bag in terms/tfs (term ids of pool home[i]), -1 when not stored */
  private readonly start: Int32Array;
  private readonly length: Uint16Array;
  private readonly home: Int32Array;
  private terms = new Int32Array(1 << 16);
  private tfs = new Uint16Array(1 << 16);
  private used = 0;
  /** scratch: 1 + position of each term in the current reference's bag, 0 when absent */
  private refPos = new Int32Array(1024);
  /** scratch: candidate marks for de-duplication, all 0 between calls */
  readonly marks: Uint8Array;
  private readonly pools = new Map<string, CategoryPool>();
  private readonly categoryTerms: [string, string][] = [];
  private readonly attrTerms: string[][] = [];
  /** product ids of pool entries (a plain array of 2M entries would be a slow dictionary) */
  private readonly ids = new Map<number, string>();

  constructor(
    readonly catalog: ColumnarCatalog,
    scanLimit: number,
    /** categories up to this size keep every product's bag (tests lower it to reach the 2M path) */
    private readonly storeAllLimit = STORE_ALL_LIMIT,
    /** leave the pools to buildPools (built in slices: bagStoreInSlices) */
    deferPools = false,
  ) {
    this.start = new Int32Array(catalog.size).fill(-1);
    this.length = new Uint16Array(catalog.size);
    this.home = new Int32Array(catalog.size).fill(-1);
    this.marks = new Uint8Array(catalog.size);
    if (!deferPools) for (const step = this.buildPools(scanLimit); !step.next().done;);
  }

  /** Builds every category's pool, in the catalog's category order, pausing after each and every BAGS_PER_SLICE bags. */
  *buildPools(scanLimit: number): Generator<void> {
    for (const category of this.catalog.categories()) {
      this.pools.set(category, yield* this.buildPool(category, scanLimit));
      yield;
    }
  }

  pool(category: string): CategoryPool | undefined {
    return this.pools.get(category);
  }

  /** catalog.idAt, kept. */
  idAt(index: number): string {
    let id = this.ids.get(index);
    if (id === undefined) {
      if (this.ids.size >= 1 << 20) this.ids.clear();
      this.ids.set(index, (id = this.catalog.idAt(index)));
    }
    return id;
  }

  private *buildPool(category: string, scanLimit: number): Generator<void, CategoryPool> {
    const catalog = this.catalog;
    const all = catalog.indicesInCategory(category);
    const whole = all.length <= scanLimit;
    let docs: ArrayLike<number> = all;
    if (!whole) {
      const stride = all.length / scanLimit;
      docs = Int32Array.from({ length: scanLimit }, (_, j) => all[Math.floor(j * stride)]);
    }
    const pool: CategoryPool = {
      number: this.pools.size,
      all,
      whole,
      docs,
      vocab: new Map(),
      idf: { n: 0, df: new Int32Array(0), idf: new Float64Array(0) },
      sortedPrices: null,
      brands: null,
      docPrices: Float64Array.from(docs, (i) => catalog.priceAt(i)).sort(),
      local: null,
    };
    const stored = all.length <= this.storeAllLimit ? all : docs;
    for (let k = 0; k < stored.length; k++) {
      const i = stored[k];
      if (this.home[i] >= 0) continue; // a leaf under a prefix category: stored with its own leaf
      this.start[i] = this.used;
      this.length[i] = this.writeBag(pool, i);
      this.home[i] = pool.number;
      this.used += this.length[i];
      if (k % BAGS_PER_SLICE === BAGS_PER_SLICE - 1) yield;
    }
    const df = new Int32Array(pool.vocab.size);
    this.mark = this.used;
    for (let k = 0; k < docs.length; k++) {
      const at = this.bagAt(pool, docs[k]);
      for (let j = at; j < at + this.bagLength; j++) df[this.terms[j]]++;
    }
    this.used = this.mark;
    const n = docs.length + 1;
    const idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) idf[t] = idfOf(n, df[t], false);
    pool.idf = { n, df, idf };
    if (whole) {
      pool.sortedPrices = all.map((i) => catalog.priceAt(i)).sort((a, b) => a - b);
      pool.brands = distinctBrands(catalog, all);
    }
    if (all.every((i) => this.home[i] === pool.number)) pool.local = this.gather(pool, all, null);
    return pool;
  }

  /** The candidates' values: from the category's copy when it has one, else from the catalog's columns. */
  candidates(pool: CategoryPool, indices: ArrayLike<number>): Candidates {
    const local = pool.local;
    if (local && indices === pool.all) return local;
    if (!local) return this.gather(pool, indices, null);
    // a subset of the category (both ascending, but the reference comes last): positions by binary search
    const positions = new Int32Array(indices.length);
    const all = pool.all;
    for (let k = 0; k < indices.length; k++) {
      let lo = 0;
      let hi = all.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (all[mid] < indices[k]) lo = mid + 1;
        else hi = mid;
      }
      if (all[lo] !== indices[k]) return this.gather(pool, indices, null); // not in the category's copy
      positions[k] = lo;
    }
    return this.gather(pool, indices, positions);
  }

  /** Copies the values of products `indices` (from pool.local at `positions`, or from the catalog's columns). */
  private gather(pool: CategoryPool, indices: ArrayLike<number>, positions: Int32Array | null): Candidates {
    const n = indices.length;
    const c: Candidates = {
      index: indices,
      price: new Float64Array(n),
      rating: new Float64Array(n),
      shipDays: new Uint8Array(n),
      brand: new Int32Array(n),
      stock: new Uint16Array(n),
      bagAt: new Int32Array(n),
      bagLen: new Uint16Array(n),
      attrs: [],
    };
    const from = pool.local;
    if (positions && from) {
      for (let k = 0; k < n; k++) {
        const p = positions[k];
        c.price[k] = from.price[p];
        c.rating[k] = from.rating[p];
        c.shipDays[k] = from.shipDays[p];
        c.brand[k] = from.brand[p];
        c.stock[k] = from.stock[p];
        c.bagAt[k] = from.bagAt[p];
        c.bagLen[k] = from.bagLen[p];
      }
      return c;
    }
    const cols = this.catalog.cols;
    for (let k = 0; k < n; k++) {
      const i = indices[k];
      c.price[k] = cols.priceCents[i] / 100; // Product.price, the same division
      c.rating[k] = cols.rating10[i] / 10;
      c.shipDays[k] = cols.shipDays[i];
      c.brand[k] = cols.brand[i];
      c.stock[k] = cols.stock[i];
      c.bagAt[k] = this.home[i] === pool.number ? this.start[i] : -1;
      c.bagLen[k] = this.length[i];
    }
    return c;
  }

  /** Attribute column a of some candidates (copied once per category for the category's own copy). */
  attrCodes(c: Candidates, a: number): Int32Array {
    let codes = c.attrs[a];
    if (!codes) {
      const column = this.catalog.cols.attrCols[a];
      codes = c.attrs[a] = new Int32Array(c.index.length);
      for (let k = 0; k < codes.length; k++) codes[k] = column[c.index[k]];
    }
    return codes;
  }

  // bagAt's result length, and the end of the stored bags (transient ones go after it)
  private bagLength = 0;
  private mark = 0;

  /**
   * Offset of product i's bag in this pool's term ids (its length in bagLength): the stored one,
   * or one written after the stored bags, valid until the next `this.used = this.mark`.
   */
  private bagAt(pool: CategoryPool, i: number): number {
    if (this.home[i] === pool.number) {
      this.bagLength = this.length[i];
      return this.start[i];
    }
    const at = this.used;
    this.bagLength = this.writeBag(pool, i);
    this.used += this.bagLength;
    return at;
  }

  /** Writes product i's bag at `used` (growing the arrays) in the pool's term ids; returns its term count. */
  private writeBag(pool: CategoryPool, index: number): number {
    const cols = this.catalog.cols;
    const at = this.used;
    let count = 0;
    const add = (word: string) => {
      let term = pool.vocab.get(word);
      if (term === undefined) pool.vocab.set(word, (term = pool.vocab.size));
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
    for (const t of this.catalog.titleTokensAt(index)) add(t);
    const [catTerm, deptTerm] = this.categoryTermsOf(cols.category[index]);
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

  /** `cat:<category>` and `dept:<department>` per category code. */
  private categoryTermsOf(code: number): [string, string] {
    let pair = this.categoryTerms[code];
    if (!pair) {
      const category = this.catalog.cols.categoryTable[code];
      const slash = category.indexOf('/');
      const department = slash < 0 ? category : category.slice(0, slash);
      pair = this.categoryTerms[code] = [`cat:${category.toLowerCase()}`, `dept:${department.toLowerCase()}`];
    }
    return pair;
  }

  /** `<attr>=<value>` for attribute column a, value code v (the value as attrsAt gives it). */
  private attrTerm(a: number, v: number, index: number): string {
    const cols = this.catalog.cols;
    const terms = (this.attrTerms[a] ??= []);
    return (terms[v] ??=
      `${cols.attrNames[a]}=${String(this.catalog.attrsAt(index)[cols.attrNames[a]]).toLowerCase()}`);
  }

  /**
   * similarities() of similarity.ts: the reference's TF-IDF cosine to each candidate, idf from
   * the pool's documents plus the reference, every float in similarities()' order.
   */
  similarities(pool: CategoryPool, refIndex: number, c: Candidates): Float64Array {
    this.mark = this.used;
    try {
      return this.cosines(pool, refIndex, c);
    } finally {
      this.used = this.mark;
    }
  }

  private cosines(pool: CategoryPool, refIndex: number, c: Candidates): Float64Array {
    const { n, df, idf } = pool.idf;
    let at = c.bagAt;
    let len = c.bagLen;
    for (let k = 0; k < at.length; k++) {
      if (at[k] >= 0) continue;
      if (at === c.bagAt) [at, len] = [at.slice(), len.slice()]; // transient bags: not kept in c
      at[k] = this.bagAt(pool, c.index[k]);
      len[k] = this.bagLength;
    }
    const refAt = this.bagAt(pool, refIndex);
    const refLen = this.bagLength;
    const { terms, tfs } = this; // after every bag is written (writing may grow them)
    if (this.refPos.length < pool.vocab.size) this.refPos = new Int32Array(2 * pool.vocab.size);
    const refPos = this.refPos;
    const refIdf = new Float64Array(refLen);
    const refW = new Float64Array(refLen);
    let refSq = 0;
    for (let j = 0; j < refLen; j++) {
      const t = terms[refAt + j];
      refIdf[j] = idfOf(n, t < df.length ? df[t] : 0, true);
      const x = tfs[refAt + j] * refIdf[j];
      refW[j] = x;
      refSq += x * x;
      refPos[t] = j + 1;
    }
    const refNorm = Math.sqrt(refSq);
    const outsideIdf = idfOf(n, 0, false); // a term no document of the pool has
    const sims = new Float64Array(at.length);
    for (let k = 0; k < at.length; k++) {
      let dot = 0;
      let sq = 0;
      for (let j = at[k]; j < at[k] + len[k]; j++) {
        const t = terms[j];
        const p = refPos[t];
        const x = tfs[j] * (p > 0 ? refIdf[p - 1] : t < idf.length ? idf[t] : outsideIdf);
        sq += x * x;
        if (p > 0) dot += x * refW[p - 1];
      }
      sims[k] = refNorm === 0 || sq === 0 ? 0 : Math.min(1, Math.max(0, dot / (refNorm * Math.sqrt(sq))));
    }
    for (let j = 0; j < refLen; j++) refPos[terms[refAt + j]] = 0;
    return sims;
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

/**
 * Builds the catalog's bag store one category at a time, awaiting `pause` in between (a server
 * lets other requests run: at 2M products the whole build is seconds). The same store as
 * bagStoreOf builds, in the same order.
 */
export async function bagStoreInSlices(
  catalog: ColumnarCatalog,
  scanLimit: number,
  pause: () => Promise<void>,
): Promise<BagStore> {
  const built = STORES.get(catalog);
  if (built) return built;
  const store = new BagStore(catalog, scanLimit, undefined, true);
  for (const step = store.buildPools(scanLimit); !step.next().done;) await pause();
  const meanwhile = STORES.get(catalog); // a reset during a pause built one in one go
  if (meanwhile) return meanwhile;
  STORES.set(catalog, store);
  return store;
}

/** The catalog's bag store, built on first use (tens of ms at 100k products). */
export function bagStoreOf(catalog: ColumnarCatalog, scanLimit: number, storeAllLimit?: number): BagStore {
  let store = STORES.get(catalog);
  if (!store) STORES.set(catalog, (store = new BagStore(catalog, scanLimit, storeAllLimit)));
  return store;
}
