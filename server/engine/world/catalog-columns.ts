// Product fields by index without building the Product, when the catalog keeps columns
// (ColumnarCatalog's brandAt / priceAt / categoryAt); any other Catalog gives the product's
// fields. Generator loops that reject most candidates (random order-history products, a
// category's look-alikes) then materialise only the one they keep: at 100k products most
// random indices miss the product cache, and materialising was the largest cost of a
// STATUS/RETURN reset (issue 13).

import type { Catalog } from '../catalog/types';

interface ColumnReads {
  idAt(index: number): string;
  titleAt(index: number): string;
  brandAt(index: number): string;
  priceAt(index: number): number;
  categoryAt(index: number): string;
}

const hasColumns = (catalog: Catalog): catalog is Catalog & ColumnReads => {
  const c = catalog as Partial<ColumnReads>;
  return (
    typeof c.idAt === 'function' &&
    typeof c.titleAt === 'function' &&
    typeof c.brandAt === 'function' &&
    typeof c.priceAt === 'function' &&
    typeof c.categoryAt === 'function'
  );
};

/** Reads of one catalog's fields by index (same values as `catalog.at(index)`'s fields). */
export interface FieldReader {
  id(index: number): string;
  title(index: number): string;
  brand(index: number): string;
  price(index: number): number;
  category(index: number): string;
}

// Generated catalogs build a title (and id) from its parts on every read: 18% of a STATUS reset
// at 1k went to rebuilding the same few history titles (issue 13). Each reader keeps the last
// title and id read per slot, direct-mapped by index (bounded memory at any catalog size).
const SLOTS = 32_768; // the default catalog (20,000) whole: at 16,384 ~18 % of its history reads missed

class ColumnFields implements FieldReader {
  private readonly titleIndex = new Int32Array(SLOTS).fill(-1);
  private readonly titles: string[] = new Array<string>(SLOTS);
  private readonly idIndex = new Int32Array(SLOTS).fill(-1);
  private readonly ids: string[] = new Array<string>(SLOTS);
  constructor(private readonly catalog: Catalog & ColumnReads) {}
  id(i: number): string {
    const slot = i & (SLOTS - 1);
    if (this.idIndex[slot] !== i) {
      this.ids[slot] = this.catalog.idAt(i);
      this.idIndex[slot] = i;
    }
    return this.ids[slot];
  }
  title(i: number): string {
    const slot = i & (SLOTS - 1);
    if (this.titleIndex[slot] !== i) {
      this.titles[slot] = this.catalog.titleAt(i);
      this.titleIndex[slot] = i;
    }
    return this.titles[slot];
  }
  brand(i: number): string {
    return this.catalog.brandAt(i);
  }
  price(i: number): number {
    return this.catalog.priceAt(i);
  }
  category(i: number): string {
    return this.catalog.categoryAt(i);
  }
}

/** One reader per catalog (catalogs never change), kept while the catalog lives. */
const READERS = new WeakMap<Catalog, FieldReader>();

export function fieldReader(catalog: Catalog): FieldReader {
  let reader = READERS.get(catalog);
  if (reader === undefined) {
    reader = hasColumns(catalog) ? new ColumnFields(catalog) : productFields(catalog);
    READERS.set(catalog, reader);
  }
  return reader;
}

function productFields(catalog: Catalog): FieldReader {
  return {
    id: (i) => catalog.at(i).id,
    title: (i) => catalog.at(i).title,
    brand: (i) => catalog.at(i).brand,
    price: (i) => catalog.at(i).price,
    category: (i) => catalog.at(i).category,
  };
}

/** The category of a catalog product id (undefined when the catalog has no such id). */
export function categoryOfId(catalog: Catalog, productId: string): string | undefined {
  if (!catalog.indexOf) return catalog.get(productId)?.category;
  const index = catalog.indexOf(productId);
  return index < 0 ? undefined : fieldReader(catalog).category(index);
}
