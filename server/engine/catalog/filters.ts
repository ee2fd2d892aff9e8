// Structured search filters (SPEC §3), compiled once per query into cheap checks
// over the columns. Semantics, all exact and all required to hold:
// - strings compare case-insensitively and whole-value ("Black" = "black", "bla" ≠ "black");
// - category matches the leaf path or any prefix of it at a "/" boundary
//   ("electronics" and "electronics/chargers" both match "electronics/chargers");
// - attribute filters (color, size, material, connector_type, item_form, and any
//   other attribute name) need the product to have the attribute with that value;
// - price_min/max, rating_min, ship_days_max are inclusive bounds; wattage_min/max
//   (and <attr>_min/_max of any numeric attribute) need the attribute present and in range;
// - in_stock: true → stock > 0, false → stock = 0 (out-of-stock only);
// - undefined/null values are ignored; an unknown key matches nothing (an
//   attribute no product has).

import type { SearchFilters } from './types';
import { numericTable, type CatalogColumns } from './columns';

export type DocPredicate = (doc: number) => boolean;

export interface CompiledFilter {
  /** null = no constraint */
  accept: DocPredicate | null;
  /** true when no product can match (skip the search entirely) */
  empty: boolean;
  /** category table indices allowed by the category filter, or null when unconstrained */
  categories: number[] | null;
}

const RANGE = /^(.*)_(min|max)$/;

function matchingIndices(table: readonly string[], value: string): Set<number> {
  const v = value.trim().toLowerCase();
  const out = new Set<number>();
  for (let i = 0; i < table.length; i++) if (table[i].toLowerCase() === v) out.add(i);
  return out;
}

/** The columns a filter reads (the evaluation pool passes a category's rows copied side by side). */
export type FilterColumns = Omit<CatalogColumns, 'ratingCount'>;

/** Compile filters against a catalog's columns. */
export function compileFilter(filters: SearchFilters | undefined, cols: FilterColumns): CompiledFilter {
  const checks: DocPredicate[] = [];
  let empty = false;
  let categories: number[] | null = null;
  if (!filters) return { accept: null, empty, categories };
  const f = filters as Record<string, unknown>;

  for (const [key, raw] of Object.entries(f)) {
    if (raw === undefined || raw === null) continue;
    switch (key) {
      case 'category': {
        const want = String(raw).trim().toLowerCase().replace(/\/+$/, '');
        const mask = new Uint8Array(cols.categoryTable.length);
        categories = [];
        cols.categoryTable.forEach((path, i) => {
          const p = path.toLowerCase();
          if (p === want || p.startsWith(want + '/')) {
            mask[i] = 1;
            categories!.push(i);
          }
        });
        if (categories.length === 0) empty = true;
        const col = cols.category;
        checks.push((d) => mask[col[d]] === 1);
        break;
      }
      case 'brand':
      case 'store': {
        const table = key === 'brand' ? cols.brandTable : cols.storeTable;
        const col = key === 'brand' ? cols.brand : cols.store;
        const ok = matchingIndices(table, String(raw));
        if (ok.size === 0) empty = true;
        else if (ok.size === 1) {
          const only = ok.values().next().value as number;
          checks.push((d) => col[d] === only);
        } else checks.push((d) => ok.has(col[d]));
        break;
      }
      case 'price_min': {
        const lo = Math.ceil(Number(raw) * 100 - 1e-6);
        const col = cols.priceCents;
        checks.push((d) => col[d] >= lo);
        break;
      }
      case 'price_max': {
        const hi = Math.floor(Number(raw) * 100 + 1e-6);
        const col = cols.priceCents;
        checks.push((d) => col[d] <= hi);
        break;
      }
      case 'rating_min': {
        const lo = Math.ceil(Number(raw) * 10 - 1e-6);
        const col = cols.rating10;
        checks.push((d) => col[d] >= lo);
        break;
      }
      case 'ship_days_max': {
        const hi = Number(raw);
        const col = cols.shipDays;
        checks.push((d) => col[d] <= hi);
        break;
      }
      case 'in_stock': {
        const col = cols.stock;
        checks.push(raw ? (d) => col[d] > 0 : (d) => col[d] === 0);
        break;
      }
      default: {
        const range = RANGE.exec(key);
        const a = cols.attrNames.indexOf(key);
        if (a >= 0) {
          const ok = matchingIndices(cols.attrTables[a], String(raw));
          if (ok.size === 0) empty = true;
          const col = cols.attrCols[a];
          // stored as 1 + table index
          const mask = new Uint8Array(cols.attrTables[a].length + 1);
          for (const i of ok) mask[i + 1] = 1;
          checks.push((d) => mask[col[d]] === 1);
        } else if (range && cols.attrNames.includes(range[1])) {
          const ai = cols.attrNames.indexOf(range[1]);
          const nums = numericTable(cols.attrTables[ai]);
          const bound = Number(raw);
          const isMin = range[2] === 'min';
          const mask = new Uint8Array(nums.length + 1);
          for (let i = 0; i < nums.length; i++) {
            const v = nums[i];
            if (!Number.isNaN(v) && (isMin ? v >= bound : v <= bound)) mask[i + 1] = 1;
          }
          const col = cols.attrCols[ai];
          checks.push((d) => mask[col[d]] === 1);
        } else {
          empty = true; // an attribute this catalog never has
        }
      }
    }
  }
  let accept: DocPredicate | null = null;
  if (checks.length === 1) accept = checks[0];
  else if (checks.length === 2) {
    const [a, b] = checks;
    accept = (d) => a(d) && b(d);
  } else if (checks.length > 2) {
    accept = (d) => {
      for (let i = 0; i < checks.length; i++) if (!checks[i](d)) return false;
      return true;
    };
  }
  return { accept, empty, categories };
}
