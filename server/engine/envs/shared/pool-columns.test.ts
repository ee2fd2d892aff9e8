// A large category's rows (pool-columns.ts) against the catalog: the copied values are the
// catalog's, and the filtered search over the rows finds exactly the products, in the same
// order, that ColumnarCatalog.filterIndices finds for the constraints PD/SUB resets draw.

import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Rng } from '../../random';
import { makeConstraints } from './persona';
import {
  attributeColumnsByCategory,
  attributeColumnsByCategoryInSteps,
  categoryRows,
  filterRows,
} from './pool-columns';
import { constraintFilters } from './recommend';
import { RowLists } from './pool-row-lists';

const catalog = createSyntheticCatalog({ seed: 3, size: 20_000 });
const cols = catalog.cols;
const attrColumns = attributeColumnsByCategory(catalog);

function rowsOf(category: string) {
  const all = catalog.indicesInCategory(category);
  const code = cols.category[all[0]];
  return { all, code, rows: categoryRows(cols, all, attrColumns[code]) };
}

describe('pool-columns', () => {
  it('attributeColumnsByCategory lists exactly the attribute columns each category has values in', () => {
    for (let c = 0; c < cols.categoryTable.length; c++) {
      const all = catalog.indicesInCategory(cols.categoryTable[c]);
      const expected = cols.attrNames.map((_, a) => a).filter((a) => all.some((i) => cols.attrCols[a][i] !== 0));
      expect([...attrColumns[c]], cols.categoryTable[c]).toEqual(expected);
    }
  });

  it('the column scan in steps pauses after each attribute column and gives the same lists', () => {
    const steps = attributeColumnsByCategoryInSteps(catalog);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(pauses).toBe(cols.attrNames.length);
    expect(step.value.map((c) => [...c])).toEqual(attrColumns.map((c) => [...c]));
  });

  it('categoryRows copies every filtered column of the category, row p = product all[p]', () => {
    for (const category of catalog.categories().slice(0, 12)) {
      const { all, rows } = rowsOf(category);
      expect(rows.size).toBe(all.length);
      for (const field of ['category', 'brand', 'store', 'priceCents', 'rating10', 'shipDays', 'stock'] as const)
        expect([...rows[field]], field).toEqual(all.map((i) => cols[field][i]));
      cols.attrCols.forEach((column, a) => expect([...rows.attrCols[a]]).toEqual(all.map((i) => column[i])));
    }
  });

  it('filterRows = catalog.filterIndices for 400 drawn constraint sets (1–5 constraints, several k)', () => {
    const rng = new Rng(7);
    let nonEmpty = 0;
    for (let t = 0; t < 400; t++) {
      const reference = catalog.at(rng.int(0, catalog.size - 1));
      const { all, code, rows } = rowsOf(reference.category);
      const constraints = makeConstraints(reference, 1 + (t % 5), 0.1 + (t % 7) * 0.1, rng);
      const filters = constraintFilters(reference.category, constraints);
      const k = [600, 5, 1, 0, 10_000][t % 5];
      const found = filterRows(rows, code, filters, k);
      expect(found, JSON.stringify(filters)).not.toBeNull();
      expect(found!.map((p) => all[p])).toEqual(catalog.filterIndices(filters, k));
      if (found!.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(300);
  });

  it('filterRows over the row lists = catalog.filterIndices for 600 drawn constraint sets', () => {
    const rng = new Rng(11);
    let narrowed = 0;
    let nonEmpty = 0;
    const lists = new Map<string, RowLists>();
    for (let t = 0; t < 600; t++) {
      const reference = catalog.at(rng.int(0, catalog.size - 1));
      const { all, code, rows } = rowsOf(reference.category);
      let rowLists = lists.get(reference.category);
      if (!rowLists) lists.set(reference.category, (rowLists = new RowLists(rows)));
      const constraints = makeConstraints(reference, 1 + (t % 6), 0.1 + (t % 7) * 0.1, rng);
      const filters = constraintFilters(reference.category, constraints);
      const k = [600, 5, 1, 10_000, 40][t % 5];
      const found = filterRows(rows, code, filters, k, rowLists);
      expect(
        found!.map((p) => all[p]),
        JSON.stringify(filters),
      ).toEqual(catalog.filterIndices(filters, k));
      if (rowLists.narrowest(filters)) narrowed++;
      if (found!.length > 0) nonEmpty++;
    }
    expect(narrowed).toBeGreaterThan(200); // most sets name a brand or an attribute value
    expect(nonEmpty).toBeGreaterThan(400);
  });

  it('RowLists groups every row under its brand and attribute codes, ascending', () => {
    for (const category of catalog.categories().slice(0, 8)) {
      const { rows } = rowsOf(category);
      const lists = new RowLists(rows);
      const columns: [number, ArrayLike<number>, number][] = [[-1, rows.brand, cols.brandTable.length]];
      cols.attrCols.forEach((_, a) => columns.push([a, rows.attrCols[a], cols.attrTables[a].length + 1]));
      for (const [column, values, codes] of columns) {
        let total = 0;
        for (let v = 0; v < codes + 2; v++) {
          const expected = Array.from({ length: rows.size }, (_, p) => p).filter((p) => values[p] === v);
          expect([...lists.of(column, v)], `${category} column ${column} value ${v}`).toEqual(expected);
          total += expected.length;
        }
        expect(total).toBe(rows.size);
      }
      const brand = cols.brandTable[rows.brand[0]];
      expect([...lists.narrowest({ category, brand: brand.toUpperCase() })!]).toEqual([...lists.of(-1, rows.brand[0])]);
      expect(lists.narrowest({ category, price_max: 50 })).toBeNull();
    }
  });

  it('filterRows leaves a filter that names other categories (or none) to the catalog', () => {
    const { code, rows } = rowsOf('electronics/chargers');
    expect(filterRows(rows, code, { category: 'electronics', price_max: 50 }, 600)).toBeNull();
    expect(filterRows(rows, code, { price_max: 50 }, 600)).toBeNull();
    expect(filterRows(rows, code, { category: 'electronics/chargers', color: 'no such colour' }, 600)).toEqual([]);
  });
});
