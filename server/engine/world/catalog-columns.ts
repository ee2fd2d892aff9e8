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

export function fieldReader(catalog: Catalog): FieldReader {
  if (hasColumns(catalog))
    return {
      id: (i) => catalog.idAt(i),
      title: (i) => catalog.titleAt(i),
      brand: (i) => catalog.brandAt(i),
      price: (i) => catalog.priceAt(i),
      category: (i) => catalog.categoryAt(i),
    };
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
