// Product fields by index without building the Product, when the catalog keeps columns
// (ColumnarCatalog's brandAt / priceAt / categoryAt); any other Catalog gives the product's
// fields. Generator loops that reject most candidates (random order-history products, a
// category's look-alikes) then materialise only the one they keep: at 100k products most
// random indices miss the product cache, and materialising was the largest cost of a
// STATUS/RETURN reset (issue 13).

import type { Catalog } from '../catalog/types';

interface ColumnReads {
  brandAt(index: number): string;
  priceAt(index: number): number;
  categoryAt(index: number): string;
}

const hasColumns = (catalog: Catalog): catalog is Catalog & ColumnReads => {
  const c = catalog as Partial<ColumnReads>;
  return typeof c.brandAt === 'function' && typeof c.priceAt === 'function' && typeof c.categoryAt === 'function';
};

/** Reads of one catalog's fields by index (same values as `catalog.at(index)`'s fields). */
export interface FieldReader {
  brand(index: number): string;
  price(index: number): number;
  category(index: number): string;
}

export function fieldReader(catalog: Catalog): FieldReader {
  if (hasColumns(catalog))
    return {
      brand: (i) => catalog.brandAt(i),
      price: (i) => catalog.priceAt(i),
      category: (i) => catalog.categoryAt(i),
    };
  return {
    brand: (i) => catalog.at(i).brand,
    price: (i) => catalog.at(i).price,
    category: (i) => catalog.at(i).category,
  };
}
