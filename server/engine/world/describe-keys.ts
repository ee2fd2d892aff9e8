// The describe key of an order-history product ("brand|category", lower case): two lines of one
// history never share one, so "the {brand} {noun}" names exactly one line (orders.ts). Every
// sampling attempt of every history asks for a random product's key (and whether it is orderable
// at all), so both are cached.

import { isDeniedCategory } from '../catalog/taxonomy';
import type { Catalog } from '../catalog/types';
import { fieldReader, type FieldReader } from './catalog-columns';

export function describeKeyOf(brand: string, category: string): string {
  // Built once per brand and category: every sampling attempt of every history asks (bounded).
  let byCategory = DESCRIBE_KEYS.get(brand);
  if (byCategory === undefined) {
    byCategory = new Map();
    if (DESCRIBE_KEYS.size < 100_000) DESCRIBE_KEYS.set(brand, byCategory);
  }
  let key = byCategory.get(category);
  if (key === undefined) {
    key = `${lower(brand)}|${lower(category)}`;
    if (byCategory.size < 1_000) byCategory.set(category, key);
  }
  return key;
}
const DESCRIBE_KEYS = new Map<string, Map<string, string>>();

// Brands and categories repeat across millions of lookups: each lower-cased once (bounded).
const LOWER = new Map<string, string>();
function lower(s: string): string {
  let out = LOWER.get(s);
  if (out === undefined) {
    out = s.toLowerCase();
    if (LOWER.size < 100_000) LOWER.set(s, out);
  }
  return out;
}

/** Products remembered per catalog, direct-mapped by index (bounded memory at any catalog size). */
const SLOTS = 32_768;

/**
 * Per product index: its describe key when it may be in a history (category not denied, price
 * above 0), else null — the same values as describeKeyOf and isDeniedCategory on its fields,
 * without the two string-keyed lookups and the denied-category lookup per sampling attempt
 * (round 13: ~20 % of an order history's samples).
 */
export class OrderableKeys {
  private readonly slotIndex = new Int32Array(SLOTS).fill(-1);
  private readonly keys: (string | null)[] = new Array<string | null>(SLOTS).fill(null);
  constructor(private readonly fields: FieldReader) {}

  keyOf(index: number): string | null {
    const slot = index & (SLOTS - 1);
    if (this.slotIndex[slot] !== index) {
      const category = this.fields.category(index);
      this.keys[slot] =
        isDeniedCategory(category) || !(this.fields.price(index) > 0)
          ? null
          : describeKeyOf(this.fields.brand(index), category);
      this.slotIndex[slot] = index;
    }
    return this.keys[slot];
  }
}

/** One per catalog (catalogs never change), kept while the catalog lives. */
const READERS = new WeakMap<Catalog, OrderableKeys>();

export function orderableKeys(catalog: Catalog): OrderableKeys {
  let reader = READERS.get(catalog);
  if (reader === undefined) READERS.set(catalog, (reader = new OrderableKeys(fieldReader(catalog))));
  return reader;
}
