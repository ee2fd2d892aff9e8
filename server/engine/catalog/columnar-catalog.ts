// The one Catalog implementation: columns + BM25 index + a text source. The
// synthetic, the small in-memory and the imported catalogs differ only in where
// their ids and texts come from, so they share the search code exactly.

import type { Catalog, Product, SearchHit, SearchRequest } from './types';
import { numericTable, type CatalogColumns } from './columns';
import { compileFilter } from './filters';
import { SearchIndex, type SearchIndexData } from './search-index';
import { tokenize } from './tokenize';
import { fuzzyTermIds } from './fuzzy';
import type { TitleParts } from './title-parts';

/** Where ids and texts come from (generated on demand, or stored strings). */
export interface ProductText {
  id(index: number): string;
  /** Dense index of an id, or -1. */
  indexOf(productId: string): number;
  title(index: number): string;
  description(index: number): string;
  features(index: number): string[];
  noun?(index: number): string | undefined;
  /** True when ids ascend with the index (id order can then be compared as index order). */
  readonly idsAscend?: boolean;
  /** tokenize(title(index)), when the source has a cheaper way to produce it. */
  titleTokens?(index: number): readonly string[];
  /** The title as numbered shared parts (generated titles): lets a reader cache per part instead of per token. */
  readonly titleParts?: TitleParts;
}

/** Materialised products kept per catalog, direct-mapped by index: bounded memory at any size. */
const PRODUCT_SLOTS = 1 << 14;

// A product's description and features are generated text few readers need (catalog.get_product):
// built on first read by getters shared by every product, with the text source kept aside. Added
// with defineProperty in key order: an object literal with `get` members (or a getter closure per
// product) puts the object in V8's dictionary mode, which made every property read of every
// product a hash lookup (issue 13).
interface LazyText {
  text: ProductText;
  index: number;
  description?: string;
  features?: string[];
}
const LAZY_TEXT = new WeakMap<object, LazyText>();
const DESCRIPTION: PropertyDescriptor = {
  get(this: object) {
    const lazy = LAZY_TEXT.get(this)!;
    return (lazy.description ??= lazy.text.description(lazy.index));
  },
  enumerable: true,
  configurable: true,
};
const FEATURES: PropertyDescriptor = {
  get(this: object) {
    const lazy = LAZY_TEXT.get(this)!;
    return (lazy.features ??= Object.freeze(lazy.text.features(lazy.index)) as string[]);
  },
  enumerable: true,
  configurable: true,
};

// A brand, not `instanceof`: Next bundles the engine into several chunks that share one catalog
// cache (server/catalogs.ts, on globalThis), so a catalog built by one chunk's class is not an
// instance of another chunk's.
const COLUMNAR: unique symbol = Symbol.for('ecomrlve.columnar-catalog');

/** Whether `c` is a ColumnarCatalog, including one built by another copy of this module. */
export function isColumnarCatalog(c: unknown): c is ColumnarCatalog {
  return typeof c === 'object' && c !== null && (c as { [COLUMNAR]?: unknown })[COLUMNAR] === true;
}

export class ColumnarCatalog implements Catalog {
  readonly [COLUMNAR] = true;
  readonly size: number;
  readonly index: SearchIndex;
  private readonly numeric: (Float64Array | null)[];
  private categoryOrder: Uint32Array | null = null;
  private categoryStart: Uint32Array | null = null;
  private readonly categoryLists = new Map<string, readonly number[]>();
  private sortedCategories: string[] | null = null;
  private readonly categoryDocCache = new Map<string, Uint32Array>();
  private readonly productSlots: (Product | undefined)[] = new Array(PRODUCT_SLOTS);
  private readonly productSlotIndex = new Int32Array(PRODUCT_SLOTS).fill(-1);

  constructor(
    readonly id: string,
    /** Column access for fast whole-catalog scans (read-only by convention). */
    readonly cols: CatalogColumns,
    readonly text: ProductText,
    indexData: SearchIndexData,
  ) {
    this.size = cols.size;
    this.index = new SearchIndex(indexData, cols.category, cols.categoryTable.length);
    this.numeric = cols.attrTables.map((t, a) => (cols.attrNumeric[a] ? numericTable(t) : null));
  }

  indexOf(productId: string): number {
    return this.text.indexOf(productId);
  }

  get(productId: string): Product | undefined {
    const i = this.text.indexOf(productId);
    return i < 0 ? undefined : this.at(i);
  }

  /**
   * The product at an index, frozen and shared: building one (its title, description and
   * features are generated text) cost more than the rest of a step, so the last product
   * materialised in each of PRODUCT_SLOTS slots is kept. Episode changes (stock) live in the
   * world, never on the product.
   */
  at(index: number): Product {
    if (!(index >= 0 && index < this.size) || !Number.isInteger(index)) {
      throw new RangeError(`product index ${index} outside 0..${this.size - 1}`);
    }
    const slot = index & (PRODUCT_SLOTS - 1);
    if (this.productSlotIndex[slot] === index) return this.productSlots[slot]!;
    const p = this.materialise(index);
    this.productSlots[slot] = Object.freeze(p);
    this.productSlotIndex[slot] = index;
    return p;
  }

  /** A product's attributes as Product.attrs has them (attribute-table order). */
  attrsAt(index: number): Record<string, string | number> {
    const c = this.cols;
    const attrs: Record<string, string | number> = {};
    for (let a = 0; a < c.attrNames.length; a++) {
      const v = c.attrCols[a][index];
      if (v === 0) continue;
      const num = this.numeric[a];
      attrs[c.attrNames[a]] = num ? num[v - 1] : c.attrTables[a][v - 1];
    }
    return attrs;
  }

  private materialise(index: number): Product {
    const c = this.cols;
    const category = c.categoryTable[c.category[index]];
    const slash = category.indexOf('/');
    const p = { id: this.text.id(index), title: this.text.title(index) } as Product;
    LAZY_TEXT.set(p, { text: this.text, index });
    Object.defineProperty(p, 'description', DESCRIPTION);
    p.category = category;
    p.department = slash < 0 ? category : category.slice(0, slash);
    p.brand = c.brandTable[c.brand[index]];
    p.store = c.storeTable[c.store[index]];
    p.attrs = Object.freeze(this.attrsAt(index));
    Object.defineProperty(p, 'features', FEATURES);
    p.price = c.priceCents[index] / 100;
    p.rating = c.rating10[index] / 10;
    p.ratingCount = c.ratingCount[index];
    p.shipDays = c.shipDays[index];
    p.stockQty = c.stock[index];
    const noun = this.text.noun?.(index);
    if (noun) p.noun = noun;
    return p;
  }

  categoryAt(index: number): string {
    return this.cols.categoryTable[this.cols.category[index]];
  }

  // Column reads for hot loops (no Product built): same values as the Product fields.
  priceAt(index: number): number {
    return this.cols.priceCents[index] / 100;
  }
  stockAt(index: number): number {
    return this.cols.stock[index];
  }
  brandAt(index: number): string {
    return this.cols.brandTable[this.cols.brand[index]];
  }
  idAt(index: number): string {
    return this.text.id(index);
  }
  titleAt(index: number): string {
    return this.text.title(index);
  }
  /** The catalog tokenizer's tokens of a title (generated titles reuse their parts' tokens). */
  titleTokensAt(index: number): readonly string[] {
    return this.text.titleTokens ? this.text.titleTokens(index) : tokenize(this.text.title(index));
  }

  search(req: SearchRequest): SearchHit[] {
    const k = Math.max(0, Math.floor(req.topK));
    if (k === 0) return [];
    const filter = compileFilter(req.filters, this.cols);
    if (filter.empty) return [];
    const tokens = tokenize(req.query ?? '');
    if (tokens.length === 0) return this.browse(k, filter.accept, filter.categories);
    const query = new Map<number, number>();
    for (const tok of tokens) {
      let ids = [this.index.termId(tok)];
      // an unknown word (typo) stands for its close vocabulary neighbours
      if (ids[0] < 0) ids = fuzzyTermIds(this.index, tok);
      for (const t of ids) query.set(t, (query.get(t) ?? 0) + 1);
    }
    if (query.size === 0) return [];
    const hits = this.index.topK(query, k, {
      accept: filter.accept ?? undefined,
      categories: filter.categories,
      categoryDocs: (cats) => this.categoryDocs(cats),
    });
    return hits.map((h) => ({ productId: this.text.id(h.doc), score: h.score }));
  }

  /** Indices of search({ query: '', filters, topK }) (the same products, in the same order), without ids. */
  filterIndices(filters: SearchRequest['filters'], topK: number): number[] {
    const k = Math.max(0, Math.floor(topK));
    if (k === 0) return [];
    const filter = compileFilter(filters, this.cols);
    return filter.empty ? [] : this.browseIndices(k, filter.accept, filter.categories);
  }

  /** Filter-only search (empty query): matching products in catalog order, score 0. */
  private browse(k: number, accept: ((d: number) => boolean) | null, categories: number[] | null): SearchHit[] {
    return this.browseIndices(k, accept, categories).map((d) => ({ productId: this.text.id(d), score: 0 }));
  }

  private browseIndices(k: number, accept: ((d: number) => boolean) | null, categories: number[] | null): number[] {
    const out: number[] = [];
    const take = (d: number) => {
      if (!accept || accept(d)) out.push(d);
      return out.length >= k;
    };
    if (categories && categories.length === 1) {
      const list = this.indicesInCategory(this.cols.categoryTable[categories[0]]);
      for (const d of list) if (take(d)) break;
    } else {
      for (let d = 0; d < this.size; d++) if (take(d)) break;
    }
    return out;
  }

  categories(): readonly string[] {
    if (!this.sortedCategories) {
      this.ensureCategoryOrder();
      const present: string[] = [];
      this.cols.categoryTable.forEach((path, i) => {
        if (this.categoryStart![i + 1] > this.categoryStart![i]) present.push(path);
      });
      this.sortedCategories = present.sort();
    }
    return this.sortedCategories;
  }

  /** Indices of a leaf category, or of every leaf under a prefix ("electronics"). */
  indicesInCategory(category: string): readonly number[] {
    const key = category.toLowerCase();
    const cached = this.categoryLists.get(key);
    if (cached) return cached;
    this.ensureCategoryOrder();
    const table = this.cols.categoryTable;
    const parts: number[] = [];
    table.forEach((path, i) => {
      const p = path.toLowerCase();
      if (p === key || p.startsWith(key + '/')) parts.push(i);
    });
    let list: number[] = [];
    for (const ci of parts) {
      for (let j = this.categoryStart![ci]; j < this.categoryStart![ci + 1]; j++) list.push(this.categoryOrder![j]);
    }
    if (parts.length > 1) list = list.sort((a, b) => a - b);
    this.categoryLists.set(key, list);
    return list;
  }

  /** Sorted indices of the products in a set of categories (cached: filters repeat). */
  private categoryDocs(categories: readonly number[]): Uint32Array {
    const key = categories.join(',');
    let docs = this.categoryDocCache.get(key);
    if (!docs) {
      this.ensureCategoryOrder();
      const order = this.categoryOrder!;
      const start = this.categoryStart!;
      if (categories.length === 1) {
        docs = order.subarray(start[categories[0]], start[categories[0] + 1]);
      } else {
        const parts = categories.map((c) => order.subarray(start[c], start[c + 1]));
        const total = parts.reduce((s, p) => s + p.length, 0);
        docs = new Uint32Array(total);
        let o = 0;
        for (const p of parts) {
          docs.set(p, o);
          o += p.length;
        }
        docs.sort();
      }
      if (this.categoryDocCache.size > 256) this.categoryDocCache.clear();
      this.categoryDocCache.set(key, docs);
    }
    return docs;
  }

  /** Counting sort of product indices by category (ascending inside each). */
  private ensureCategoryOrder(): void {
    if (this.categoryOrder) return;
    const n = this.cols.categoryTable.length;
    const start = new Uint32Array(n + 1);
    const col = this.cols.category;
    for (let i = 0; i < this.size; i++) start[col[i] + 1]++;
    for (let c = 0; c < n; c++) start[c + 1] += start[c];
    const fill = start.slice(0, n);
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[fill[col[i]]++] = i;
    this.categoryOrder = order;
    this.categoryStart = start;
  }
}
