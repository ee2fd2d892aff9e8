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
// ones their sample (at 2M products, 75 × 1,500 bags) and the other bags resets needed, up to
// KEPT_TERMS more terms; beyond it bags are built per call into the store's tail and dropped.

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { FilterColumns } from '../../catalog/filters';
import { attributeColumnsByCategoryInSteps, categoryRows, distinctBrands } from './pool-columns';
import type { Candidates, CategoryPool } from './pool-types';

export type { Candidates, CategoryPool, IdfTable } from './pool-types';

/**
 * Bags written between two chances to pause a build in slices (a few ms; the caller decides
 * whether to pause, e.g. by a time budget: server/catalogs.ts).
 */
const BAGS_PER_SLICE = 50;

/** Categories up to this size keep every product's bag (at 100k products: all of them). */
const STORE_ALL_LIMIT = 6000;
/**
 * Other bags a pool needs (filtered-search candidates of large categories) are kept too, up to
 * this many terms beyond the built store (2M terms, 12 MB with their counts, ~150k bags: at 2M
 * products the candidates most resets meet again); then they are written per call and dropped.
 */
const KEPT_TERMS = 1 << 21;

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
  /** per category code, the attribute columns some product of it has (a bag reads only these) */
  private attrColumns: Int32Array[] = [];
  private readonly attrTerms: string[][] = [];
  /**
   * Product ids of pool entries, in chunks of 4,096 indices: a plain array of 2M entries would be
   * a slow dictionary, and a Map of 100k numbers cost a cache miss per lookup (the hottest line).
   */
  private readonly idChunks: (string | undefined)[][] = [];

  constructor(
    readonly catalog: ColumnarCatalog,
    scanLimit: number,
    /** categories up to this size keep every product's bag (tests lower it to reach the 2M path) */
    private readonly storeAllLimit = STORE_ALL_LIMIT,
    /** terms of other bags kept beyond the built store (tests lower it to reach per-call bags) */
    private readonly keptTerms = KEPT_TERMS,
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
    // the column scan is a slice of its own per attribute (≈ 0.2 s of CPU in one piece at 2M)
    if (this.attrColumns.length === 0) this.attrColumns = yield* attributeColumnsByCategoryInSteps(this.catalog);
    for (const category of this.catalog.categories()) {
      this.pools.set(category, yield* this.buildPool(category, scanLimit));
      yield;
    }
    // large categories' rows now too: no reset in a new category pays for them (~1 ms each at 2M)
    for (const pool of this.pools.values())
      if (!pool.whole) {
        this.rowsOf(pool);
        yield;
      }
    this.keptLimit = this.used + this.keptTerms;
  }

  pool(category: string): CategoryPool | undefined {
    return this.pools.get(category);
  }

  /** catalog.idAt, kept. */
  idAt(index: number): string {
    const chunk = (this.idChunks[index >> 12] ??= new Array<string | undefined>(4096));
    return (chunk[index & 4095] ??= this.catalog.idAt(index));
  }

  private *buildPool(category: string, scanLimit: number): Generator<void, CategoryPool> {
    const catalog = this.catalog;
    const all = catalog.indicesInCategory(category);
    const whole = all.length <= scanLimit;
    let docs: ArrayLike<number> = all;
    let docRows: Int32Array | null = null;
    if (!whole) {
      const stride = all.length / scanLimit;
      docRows = Int32Array.from({ length: scanLimit }, (_, j) => Math.floor(j * stride));
      docs = docRows.map((p) => all[p]);
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
      docRows,
      rows: null,
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

  /** A large category's rows of the catalog's columns (pool-columns.ts), copied once. */
  rowsOf(pool: CategoryPool): FilterColumns {
    if (!pool.rows) {
      const codes = new Set<number>();
      for (let k = 0; k < pool.all.length; k++) codes.add(this.catalog.cols.category[pool.all[k]]);
      const attrColumns = [...new Set([...codes].flatMap((c) => [...this.attrColumns[c]]))].sort((a, b) => a - b);
      pool.rows = categoryRows(this.catalog.cols, pool.all, attrColumns);
    }
    return pool.rows;
  }

  /**
   * The candidates' values: from the category's copy when it has one, else from its rows (`rows`:
   * each candidate's row in pool.all, when known), else from the catalog's columns.
   */
  candidates(pool: CategoryPool, indices: ArrayLike<number>, rows: Int32Array | null): Candidates {
    const local = pool.local;
    if (local && indices === pool.all) return local;
    return this.gather(pool, indices, rows);
  }

  /** Copies the values of products `indices` (at `positions` of pool.local or pool.rows, or from the catalog's columns). */
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
      columns: pool.rows && positions ? pool.rows : this.catalog.cols,
      rows: pool.rows && positions ? positions : indices,
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
    const cols = c.columns;
    const rows = c.rows;
    for (let k = 0; k < n; k++) {
      const i = indices[k];
      const r = rows[k];
      c.price[k] = cols.priceCents[r] / 100; // Product.price, the same division
      c.rating[k] = cols.rating10[r] / 10;
      c.shipDays[k] = cols.shipDays[r];
      c.brand[k] = cols.brand[r];
      c.stock[k] = cols.stock[r];
      c.bagAt[k] = this.home[i] === pool.number ? this.start[i] : -1;
      c.bagLen[k] = this.length[i];
    }
    return c;
  }

  /** Attribute column a of some candidates (copied once per category for the category's own copy). */
  attrCodes(c: Candidates, a: number): Int32Array {
    let codes = c.attrs[a];
    if (!codes) {
      const column = c.columns.attrCols[a];
      codes = c.attrs[a] = new Int32Array(c.index.length);
      for (let k = 0; k < codes.length; k++) codes[k] = column[c.rows[k]];
    }
    return codes;
  }

  // bagAt's result length, and the end of the stored bags (transient ones go after it)
  private bagLength = 0;
  private mark = 0;
  /** bags are kept while the store holds at most this many terms (0 while building) */
  private keptLimit = 0;

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
    // kept while the budget lasts and nothing transient lies before it (resets meet the same products again)
    if (this.home[i] < 0 && at === this.mark && this.used <= this.keptLimit) {
      this.start[i] = at;
      this.length[i] = this.bagLength;
      this.home[i] = pool.number;
      this.mark = this.used;
    }
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
    const attrColumns = this.attrColumns[cols.category[index]];
    for (let j = 0; j < attrColumns.length; j++) {
      const a = attrColumns[j];
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
  const store = new BagStore(catalog, scanLimit, undefined, undefined, true);
  for (const step = store.buildPools(scanLimit); !step.next().done;) await pause();
  const meanwhile = STORES.get(catalog); // a reset during a pause built one in one go
  if (meanwhile) return meanwhile;
  STORES.set(catalog, store);
  return store;
}

/** The catalog's bag store, built on first use (tens of ms at 100k products). */
export function bagStoreOf(
  catalog: ColumnarCatalog,
  scanLimit: number,
  storeAllLimit?: number,
  keptTerms?: number,
): BagStore {
  let store = STORES.get(catalog);
  if (!store) STORES.set(catalog, (store = new BagStore(catalog, scanLimit, storeAllLimit, keptTerms)));
  return store;
}
