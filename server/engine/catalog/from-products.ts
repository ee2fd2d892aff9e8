// Catalogs built from Product objects (tests, fixtures, imported catalogs). They
// are stored in the same columns and searched by the same code as the synthetic
// catalog; only ids and texts are kept as strings.

import type { Catalog, Product } from './types';
import { Interner, compactColumn, type CatalogColumns } from './columns';
import { ColumnarCatalog, type ProductText } from './columnar-catalog';
import { IndexBuilder, type SearchIndexData } from './search-index';
import { FIELD_WEIGHTS } from './synthetic';
import { tokenize } from './tokenize';

/** Ids and texts held as strings (parallel arrays by product index). */
export interface StoredTexts {
  ids: string[];
  titles: string[];
  descriptions: string[];
  features: string[][];
  nouns: (string | undefined)[];
}

export class StoredText implements ProductText {
  private readonly byId: Map<string, number>;
  constructor(readonly texts: StoredTexts) {
    this.byId = new Map(texts.ids.map((id, i) => [id, i]));
  }
  id(i: number): string {
    return this.texts.ids[i];
  }
  indexOf(productId: string): number {
    return this.byId.get(productId) ?? -1;
  }
  title(i: number): string {
    return this.texts.titles[i];
  }
  description(i: number): string {
    return this.texts.descriptions[i];
  }
  features(i: number): string[] {
    return this.texts.features[i].slice();
  }
  noun(i: number): string | undefined {
    return this.texts.nouns[i];
  }
}

const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));

/**
 * Collects products one at a time (so an import can stream), then lays them out
 * in columns and builds the index. Duplicate ids are rejected by `add`.
 */
export class CatalogAccumulator {
  private readonly categories = new Interner();
  private readonly brands = new Interner();
  private readonly stores = new Interner();
  private readonly attrNames = new Interner();
  private readonly attrValues: Interner[] = [];
  private readonly attrAllNumeric: boolean[] = [];
  private readonly ids = new Set<string>();
  private readonly cat: number[] = [];
  private readonly brand: number[] = [];
  private readonly store: number[] = [];
  private readonly price: number[] = [];
  private readonly rating: number[] = [];
  private readonly ratingCount: number[] = [];
  private readonly ship: number[] = [];
  private readonly stock: number[] = [];
  /** per attribute: product index → 1 + value index (sparse until finish) */
  private readonly attrCodes: Map<number, number>[] = [];
  readonly texts: StoredTexts = { ids: [], titles: [], descriptions: [], features: [], nouns: [] };

  get size(): number {
    return this.texts.ids.length;
  }

  has(productId: string): boolean {
    return this.ids.has(productId);
  }

  add(p: Product): void {
    if (this.ids.has(p.id)) throw new Error(`duplicate product id ${p.id}`);
    const i = this.size;
    this.ids.add(p.id);
    this.texts.ids.push(p.id);
    this.texts.titles.push(p.title);
    this.texts.descriptions.push(p.description);
    this.texts.features.push(p.features.slice());
    this.texts.nouns.push(p.noun);
    this.cat.push(this.categories.id(p.category.toLowerCase()));
    this.brand.push(this.brands.id(p.brand));
    this.store.push(this.stores.id(p.store));
    this.price.push(clampInt(p.price * 100, 0, 0xffffffff));
    this.rating.push(clampInt(p.rating * 10, 10, 50));
    this.ratingCount.push(clampInt(p.ratingCount, 0, 0xffffffff));
    this.ship.push(clampInt(p.shipDays, 1, 255));
    this.stock.push(clampInt(p.stockQty, 0, 0xffff));
    for (const [name, value] of Object.entries(p.attrs)) {
      if (value === '' || value === null || value === undefined) continue;
      const a = this.attrNames.id(name);
      if (a === this.attrValues.length) {
        this.attrValues.push(new Interner());
        this.attrAllNumeric.push(true);
        this.attrCodes.push(new Map());
      }
      if (typeof value !== 'number') this.attrAllNumeric[a] = false;
      this.attrCodes[a].set(i, this.attrValues[a].id(String(value)) + 1);
    }
  }

  /** Columns, texts and index of everything added so far. */
  finish(): { cols: CatalogColumns; texts: StoredTexts; index: SearchIndexData } {
    const n = this.size;
    const attrTables = this.attrValues.map((v) => v.list.slice());
    const attrCols = this.attrCodes.map((codes, a) => {
      const dense = new Uint32Array(n);
      for (const [i, code] of codes) dense[i] = code;
      return compactColumn(dense, n, attrTables[a].length + 1);
    });
    const cols: CatalogColumns = {
      size: n,
      categoryTable: this.categories.list.slice(),
      category: compactColumn(this.cat, n, this.categories.list.length),
      brandTable: this.brands.list.slice(),
      brand: compactColumn(this.brand, n, this.brands.list.length),
      storeTable: this.stores.list.slice(),
      store: compactColumn(this.store, n, this.stores.list.length),
      priceCents: Uint32Array.from(this.price),
      rating10: Uint8Array.from(this.rating),
      ratingCount: Uint32Array.from(this.ratingCount),
      shipDays: Uint8Array.from(this.ship),
      stock: Uint16Array.from(this.stock),
      attrNames: this.attrNames.list.slice(),
      attrTables,
      attrCols,
      attrNumeric: this.attrAllNumeric.slice(),
    };
    return { cols, texts: this.texts, index: buildIndexFromTexts(cols, this.texts) };
  }
}

/** Index title, brand, category and attribute values with the synthetic field weights. */
export function buildIndexFromTexts(cols: CatalogColumns, texts: StoredTexts): SearchIndexData {
  const builder = new IndexBuilder(cols.size);
  const W = FIELD_WEIGHTS;
  const tokenIds = (text: string) => tokenize(text).map((t) => builder.termId(t));
  const brandToks = cols.brandTable.map(tokenIds);
  const catToks = cols.categoryTable.map(tokenIds);
  const valueToks = cols.attrTables.map((t) => t.map(tokenIds));
  const scratch: string[] = [];
  for (let i = 0; i < cols.size; i++) {
    scratch.length = 0;
    for (const t of tokenize(texts.titles[i], scratch)) builder.add(builder.termId(t), W.title);
    for (const t of brandToks[cols.brand[i]]) builder.add(t, W.brand);
    for (const t of catToks[cols.category[i]]) builder.add(t, W.category);
    for (let a = 0; a < cols.attrCols.length; a++) {
      const v = cols.attrCols[a][i];
      if (v) for (const t of valueToks[a][v - 1]) builder.add(t, W.attrs);
    }
    builder.endDoc();
  }
  return builder.build();
}

/** A catalog over an explicit product list (ids must be unique); search as in the synthetic one. */
export function createCatalogFromProducts(id: string, products: readonly Product[]): ColumnarCatalog & Catalog {
  const acc = new CatalogAccumulator();
  for (const p of products) acc.add(p);
  const { cols, texts, index } = acc.finish();
  return new ColumnarCatalog(id, cols, new StoredText(texts), index);
}
