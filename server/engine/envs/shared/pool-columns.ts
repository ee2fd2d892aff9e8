// A large category's rows of the catalog's columns, copied side by side (issue 13, 2M products).
// A category's products are spread over the whole catalog, so the filtered search of a PD/SUB
// reset (the first FULL_LIMIT products meeting every constraint, in catalog order) read each
// column at a scattered index: a cache miss per check. Over the copy, row p is product all[p]
// and the same compiled filter (filters.ts) runs over consecutive rows, so it accepts exactly
// the products the catalog's filtered search accepts, in the same order.

import type { CatalogColumns, IndexColumn } from '../../catalog/columns';
import { compileFilter, type FilterColumns } from '../../catalog/filters';
import type { ColumnarCatalog } from '../../catalog/columnar-catalog';
import type { SearchFilters } from '../../catalog/types';
import type { RowLists } from './pool-row-lists';

/**
 * Rows `all` of the columns a filter reads. Attribute columns no product of the category uses
 * (not in `attrColumns`) are one shared column of zeros (no value), as they are in the catalog.
 */
export function categoryRows(
  cols: CatalogColumns,
  all: readonly number[],
  attrColumns: ArrayLike<number>,
): FilterColumns {
  const n = all.length;
  function rows<T extends IndexColumn>(column: T): T {
    const out = new (column.constructor as new (length: number) => T)(n);
    for (let p = 0; p < n; p++) out[p] = column[all[p]];
    return out;
  }
  const none = new Uint8Array(n);
  const attrCols: IndexColumn[] = cols.attrCols.map(() => none);
  for (let j = 0; j < attrColumns.length; j++) attrCols[attrColumns[j]] = rows(cols.attrCols[attrColumns[j]]);
  return {
    size: n,
    categoryTable: cols.categoryTable,
    category: rows(cols.category),
    brandTable: cols.brandTable,
    brand: rows(cols.brand),
    storeTable: cols.storeTable,
    store: rows(cols.store),
    priceCents: rows(cols.priceCents),
    rating10: rows(cols.rating10),
    shipDays: rows(cols.shipDays),
    stock: rows(cols.stock),
    attrNames: cols.attrNames,
    attrTables: cols.attrTables,
    attrCols,
    attrNumeric: cols.attrNumeric,
  };
}

/**
 * ColumnarCatalog.filterIndices(filters, topK) as rows of `category` when the filter names that
 * one category (the catalog then walks the category's products in order, as this walks its rows);
 * null otherwise (the caller asks the catalog). With the category's row lists, only the rows of
 * the brand or attribute value a constraint names are walked (they hold every row it accepts).
 */
export function filterRows(
  category: FilterColumns,
  categoryCode: number,
  filters: SearchFilters,
  topK: number,
  lists?: RowLists,
): number[] | null {
  const k = Math.max(0, Math.floor(topK));
  if (k === 0) return [];
  const filter = compileFilter(filters, category);
  if (filter.empty) return [];
  if (filter.categories?.length !== 1 || filter.categories[0] !== categoryCode || !filter.accept) return null;
  const accept = filter.accept;
  const out: number[] = [];
  const group = lists?.narrowest(filters);
  if (group) {
    for (let j = 0; j < group.length && out.length < k; j++) if (accept(group[j])) out.push(group[j]);
  } else for (let p = 0; p < category.size && out.length < k; p++) if (accept(p)) out.push(p);
  return out;
}

/**
 * For each category code, the attribute columns (ascending) in which some product of the category
 * has a value: a category uses a handful of the catalog's attributes, and reading every column at a
 * scattered index cost a cache miss each (the hottest line of a 2M reset). Sequential passes.
 */
export function attributeColumnsByCategory(catalog: ColumnarCatalog): Int32Array[] {
  const steps = attributeColumnsByCategoryInSteps(catalog);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * attributeColumnsByCategory one column pass at a time, yielding after each: at 2M products the
 * whole scan is ≈ 0.2 s of CPU, one pause of a server thread that builds pools in slices.
 */
export function* attributeColumnsByCategoryInSteps(catalog: ColumnarCatalog): Generator<void, Int32Array[]> {
  const cols = catalog.cols;
  const categories = cols.categoryTable.length;
  const used = new Uint8Array(categories * cols.attrNames.length);
  for (let a = 0; a < cols.attrNames.length; a++) {
    const column = cols.attrCols[a];
    for (let i = 0; i < catalog.size; i++) if (column[i] !== 0) used[cols.category[i] * cols.attrNames.length + a] = 1;
    yield;
  }
  return Array.from({ length: categories }, (_, c) =>
    Int32Array.from(cols.attrNames.keys()).filter((a) => used[c * cols.attrNames.length + a] === 1),
  );
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
