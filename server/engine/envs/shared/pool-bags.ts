// Feature bags and per-category document frequencies for the evaluation pool (issue 13),
// built once per catalog on the first pool: every category's idf documents (the whole
// category, or its stride sample when it is larger than the scan limit), their bags as term
// ids in one flat store (pool-terms.ts), the idf table, and for whole categories the sorted
// prices and the brands; for large categories their rows (pool-columns.ts) and their sample's
// values (pool-candidates.ts). A reset then reads these instead of building ~1,500 bags first.
//
// Every product's bag is stored (tenth round, 2M products: writing the filtered-search
// candidates' bags per reset was ~30% of a PD/SUB reset; storing all 2M bags costs ~2.5 s more
// CPU at the build and ~190 MB). Tests lower storeAllLimit to keep only a
// large category's sample, as the ninth round did: other bags are then kept as resets need them,
// up to KEPT_TERMS more terms, and beyond it written per call into the store's tail and dropped.

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { FilterColumns } from '../../catalog/filters';
import { attributeColumnsByCategoryInSteps, categoryRows, distinctBrands } from './pool-columns';
import { copyCandidate, newCandidates, readCandidate } from './pool-candidates';
import { RowLists } from './pool-row-lists';
import { BagTerms, cosines, idfOf } from './pool-terms';
import type { Candidates, CategoryPool } from './pool-types';

export type { Candidates, CategoryPool, IdfTable } from './pool-types';
export { idfOf } from './pool-terms';

/**
 * Bags written between two chances to pause a build in slices (a few ms; the caller decides
 * whether to pause, e.g. by a time budget: server/catalogs.ts).
 */
const BAGS_PER_SLICE = 50;

/** Categories up to this size keep every product's bag: all of them. */
const STORE_ALL_LIMIT = Infinity;
/**
 * Categories up to this size whose bags are all stored keep a copy of their candidates' values
 * and ids (pool.local; at 100k products: every category); larger ones read their rows.
 */
const LOCAL_LIMIT = 6000;
/**
 * Other bags a pool needs (filtered-search candidates of large categories) are kept too, up to
 * this many terms beyond the built store (2M terms, 12 MB with their counts, ~150k bags: at 2M
 * products the candidates most resets meet again); then they are written per call and dropped.
 */
const KEPT_TERMS = 1 << 21;

export class BagStore {
  /** offset of product i's bag in bags.terms (term ids of pool home[i]), -1 when not stored */
  private readonly start: Int32Array;
  private readonly length: Uint16Array;
  private readonly home: Int32Array;
  private readonly bags: BagTerms;
  /** scratch: 1 + position of each term in the current reference's bag, 0 when absent */
  private refPos = new Int32Array(1024);
  private readonly pools = new Map<string, CategoryPool>();
  constructor(
    readonly catalog: ColumnarCatalog,
    scanLimit: number,
    /** categories up to this size keep every product's bag (tests lower it to reach the 2M path) */
    private readonly storeAllLimit = STORE_ALL_LIMIT,
    /** terms of other bags kept beyond the built store (tests lower it to reach per-call bags) */
    private readonly keptTerms = KEPT_TERMS,
    /** categories up to this size keep their candidates' copy (tests lower it to reach the 2M path) */
    private readonly localLimit = LOCAL_LIMIT,
    /** leave the pools to buildPools (built in slices: bagStoreInSlices) */
    deferPools = false,
  ) {
    this.start = new Int32Array(catalog.size).fill(-1);
    this.length = new Uint16Array(catalog.size);
    this.home = new Int32Array(catalog.size).fill(-1);
    this.bags = new BagTerms(catalog);
    if (!deferPools) for (const step = this.buildPools(scanLimit); !step.next().done;);
  }

  /** Builds every category's pool, in the catalog's category order, pausing after each and every BAGS_PER_SLICE bags. */
  *buildPools(scanLimit: number): Generator<void> {
    // the column scan is a slice of its own per attribute (≈ 0.2 s of CPU in one piece at 2M)
    if (this.bags.attrColumns.length === 0)
      this.bags.attrColumns = yield* attributeColumnsByCategoryInSteps(this.catalog);
    for (const category of this.catalog.categories()) {
      this.pools.set(category, yield* this.buildPool(category, scanLimit));
      yield;
    }
    // large categories' rows and samples now too: no reset in a new category pays for them (~1 ms each at 2M)
    for (const pool of this.pools.values())
      if (!pool.whole) {
        this.buildLarge(pool);
        yield;
      }
    this.bags.trim();
    this.keptLimit = this.bags.used + this.keptTerms;
  }

  pool(category: string): CategoryPool | undefined {
    return this.pools.get(category);
  }

  private *buildPool(category: string, scanLimit: number): Generator<void, CategoryPool> {
    const catalog = this.catalog;
    const bags = this.bags;
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
      vocab: bags.vocabulary(),
      idf: { n: 0, df: new Int32Array(0), idf: new Float64Array(0) },
      sortedPrices: null,
      brands: null,
      docPrices: Float64Array.from(docs, (i) => catalog.priceAt(i)).sort(),
      local: null,
      docRows,
      rows: null,
      sample: null,
      docMark: null,
      rowBag: null,
      rowBagLen: null,
      docBrands: null,
      rowLists: null,
    };
    const stored = all.length <= this.storeAllLimit ? scanOrder(all, docRows) : docs;
    for (let k = 0; k < stored.length; k++) {
      const i = stored[k];
      if (this.home[i] >= 0) continue; // a leaf under a prefix category: stored with its own leaf
      this.start[i] = bags.used;
      this.length[i] = bags.write(pool.vocab, i);
      this.home[i] = pool.number;
      bags.used += this.length[i];
      if (k % BAGS_PER_SLICE === BAGS_PER_SLICE - 1) yield;
    }
    const df = new Int32Array(pool.vocab.size);
    this.mark = bags.used;
    for (let k = 0; k < docs.length; k++) {
      const at = this.bagAt(pool, docs[k]);
      for (let j = at; j < at + this.bagLength; j++) df[bags.terms[j]]++;
    }
    bags.used = this.mark;
    const n = docs.length + 1;
    const idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) idf[t] = idfOf(n, df[t], false);
    pool.idf = { n, df, idf };
    if (whole) {
      pool.sortedPrices = all.map((i) => catalog.priceAt(i)).sort((a, b) => a - b);
      pool.brands = distinctBrands(catalog, all);
    }
    if (all.length <= this.localLimit && all.every((i) => this.home[i] === pool.number)) {
      const local = this.gather(pool, all);
      for (let k = 0; k < all.length; k++) local.ids[k] = this.catalog.idAt(all[k]);
      pool.local = local;
      pool.vocab.release(); // every bag of it is stored: its part index is not needed again
    }
    return pool;
  }

  /** A large category's rows of the catalog's columns (pool-columns.ts), its sample's values and bags by row. */
  private buildLarge(pool: CategoryPool): void {
    const codes = new Set<number>();
    for (let k = 0; k < pool.all.length; k++) codes.add(this.catalog.cols.category[pool.all[k]]);
    const attrColumns = [...new Set([...codes].flatMap((c) => [...this.bags.attrColumns[c]]))].sort((a, b) => a - b);
    const rows = (pool.rows = categoryRows(this.catalog.cols, pool.all, attrColumns));
    pool.rowLists = new RowLists(rows);
    const docRows = pool.docRows!;
    const sample = newCandidates(pool.docs, rows, docRows, []);
    const docBrands = new Uint8Array(this.catalog.cols.brandTable.length);
    pool.docMark = new Uint8Array(pool.all.length);
    pool.rowBag = new Int32Array(pool.all.length).fill(-1);
    pool.rowBagLen = new Uint16Array(pool.all.length);
    for (let r = 0; r < pool.all.length; r++) {
      const i = pool.all[r];
      if (this.home[i] !== pool.number) continue;
      pool.rowBag[r] = this.start[i];
      pool.rowBagLen[r] = this.length[i];
    }
    for (let k = 0; k < docRows.length; k++) {
      const i = pool.docs[k];
      const r = docRows[k];
      if (pool.local) copyCandidate(sample, k, pool.local, r);
      else readCandidate(sample, k, rows, r);
      sample.bagAt[k] = this.home[i] === pool.number ? this.start[i] : -1;
      sample.bagLen[k] = this.length[i];
      sample.ids[k] = this.catalog.idAt(i);
      docBrands[sample.brand[k]] = 1;
      pool.docMark[r] = 1;
    }
    pool.sample = sample;
    pool.docBrands = { codes: docBrands, names: distinctBrands(this.catalog, pool.docs) };
  }

  /** A large category's rows (pool-columns.ts). */
  rowsOf(pool: CategoryPool): FilterColumns {
    if (!pool.rows) this.buildLarge(pool);
    return pool.rows!;
  }

  /** A whole category's candidates: the category's copy when it has one, else read from the catalog's columns. */
  wholeCandidates(pool: CategoryPool): Candidates {
    return pool.local ?? this.gather(pool, pool.all);
  }

  /** The values of products `indices` from the catalog's columns, and their bags stored for this pool. */
  private gather(pool: CategoryPool, indices: ArrayLike<number>): Candidates {
    const cols = this.catalog.cols;
    const c = newCandidates(indices, cols, indices, new Array<string | undefined>(indices.length));
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k];
      readCandidate(c, k, cols, i);
      c.bagAt[k] = this.home[i] === pool.number ? this.start[i] : -1;
      c.bagLen[k] = this.length[i];
    }
    return c;
  }

  // bagAt's result length, and the end of the stored bags (transient ones go after it)
  private bagLength = 0;
  private mark = 0;
  /** bags are kept while the store holds at most this many terms (0 while building) */
  private keptLimit = 0;

  /**
   * Offset of product i's bag (at `row` of a large pool, -1 when unknown) in this pool's term ids
   * (its length in bagLength): the stored one, or one written after the stored bags, valid until
   * the next `used = mark`.
   */
  private bagAt(pool: CategoryPool, i: number, row = -1): number {
    if (this.home[i] === pool.number) {
      this.bagLength = this.length[i];
      return this.start[i];
    }
    const bags = this.bags;
    const at = bags.used;
    this.bagLength = bags.write(pool.vocab, i);
    bags.used += this.bagLength;
    // kept while the budget lasts and nothing transient lies before it (resets meet the same products again)
    if (this.home[i] < 0 && at === this.mark && bags.used <= this.keptLimit) {
      this.start[i] = at;
      this.length[i] = this.bagLength;
      this.home[i] = pool.number;
      this.mark = bags.used;
      if (row >= 0 && pool.rowBag) {
        pool.rowBag[row] = at;
        pool.rowBagLen![row] = this.bagLength;
      }
    }
    return at;
  }

  /**
   * similarities() of test/similarity.ts: the reference's TF-IDF cosine to each candidate, idf from
   * the pool's documents plus the reference, every float in similarities()' order (0 for the
   * candidates `need` leaves out), into `out` when given.
   */
  similarities(
    pool: CategoryPool,
    refIndex: number,
    c: Candidates,
    need?: Uint8Array,
    out?: Float64Array,
  ): Float64Array {
    const bags = this.bags;
    this.mark = bags.used;
    try {
      let at = c.bagAt;
      let len = c.bagLen;
      const byRow = c.columns === pool.rows;
      for (let k = 0; k < at.length; k++) {
        if (at[k] >= 0 || (need && !need[k])) continue;
        if (at === c.bagAt) [at, len] = [at.slice(), len.slice()]; // transient bags: not kept in c
        at[k] = this.bagAt(pool, c.index[k], byRow ? c.rows[k] : -1);
        len[k] = this.bagLength;
      }
      const refAt = this.bagAt(pool, refIndex);
      if (this.refPos.length < pool.vocab.size) this.refPos = new Int32Array(2 * pool.vocab.size);
      return cosines(bags, pool.idf, refAt, this.bagLength, at, len, this.refPos, need, out);
    } finally {
      bags.used = this.mark;
    }
  }
}

/**
 * A category's products in the order a pool's scan reads their bags: a large category's
 * documents first (its stride sample, every reset's candidates, in candidate order), then the
 * others in row order. The cosines then read the sample's bags as one run instead of one cache
 * miss per bag over the whole store (a term's id is the order it is first met; the floats do not
 * depend on it).
 */
function scanOrder(all: readonly number[], docRows: Int32Array | null): ArrayLike<number> {
  if (!docRows) return all;
  const order = new Int32Array(all.length);
  const isDoc = new Uint8Array(all.length);
  for (let k = 0; k < docRows.length; k++) {
    order[k] = all[docRows[k]];
    isDoc[docRows[k]] = 1;
  }
  let k = docRows.length;
  for (let r = 0; r < all.length; r++) if (!isDoc[r]) order[k++] = all[r];
  return order;
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
  const store = new BagStore(catalog, scanLimit, undefined, undefined, undefined, true);
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
  localLimit?: number,
): BagStore {
  let store = STORES.get(catalog);
  if (!store) STORES.set(catalog, (store = new BagStore(catalog, scanLimit, storeAllLimit, keptTerms, localLimit)));
  return store;
}
