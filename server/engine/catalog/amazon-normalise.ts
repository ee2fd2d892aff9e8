// Normalisation of one Amazon Reviews 2023 item-metadata record (SPEC §3) into a
// Product. Pure and deterministic: the same record always gives the same product.
// Rules:
// - id = parent_asin (required); title required (non-empty string);
// - brand = details.Brand, else store, else "Unbranded"; store = store, else brand;
// - price: number, or a string like "$1,299.00"; null / "" / "None" → 9.99;
//   anything else (e.g. "$10 - $20", "free") makes the line bad;
// - rating = average_rating clamped to 1..5 (one decimal), missing → 3.0;
// - ship_days = geometric(p = 0.4) from a hash of the id, clamped 1..14;
// - stock = 0 for 10% of ids (by hash), else Poisson(20) clamped 1..200;
// - details may be an object or a JSON string (an unreadable string is a warning,
//   read as {}); known keys become attrs (color, size, material, connector_type,
//   wattage, item_form, skin_type, finish_type, screen_size_in, weight_lb, ...);
// - category = "dept/leaf": dept from main_category (mapped onto the synthetic
//   departments where one fits; a deeper category such as "Furniture" wins), leaf
//   from the last of categories[] ("general" when there is none); a record in a
//   denied category (by any of its category names) goes to "restricted/<name>".

import { Rng, hashParts, hashUnit } from '../random';
import type { Product } from './types';
import { DENIED_CATEGORIES } from './taxonomy';
import { stem } from './tokenize';

export const MISSING_PRICE = 9.99;
export const MISSING_RATING = 3.0;

export type NormaliseResult = { product: Product; warnings: string[] } | { error: string };

const DEPARTMENT_MAP: Record<string, string> = {
  all_electronics: 'electronics',
  electronics: 'electronics',
  computers: 'electronics',
  cell_phones_accessories: 'electronics',
  camera_photo: 'electronics',
  home_audio_theater: 'electronics',
  amazon_fashion: 'clothing',
  clothing_shoes_jewelry: 'clothing',
  fashion: 'clothing',
  amazon_home: 'home_kitchen',
  home_kitchen: 'home_kitchen',
  kitchen_dining: 'home_kitchen',
  appliances: 'home_kitchen',
  all_beauty: 'beauty',
  beauty: 'beauty',
  premium_beauty: 'beauty',
  beauty_personal_care: 'beauty',
  sports_outdoors: 'sports_outdoors',
  grocery: 'grocery',
  grocery_gourmet_food: 'grocery',
  toys_games: 'toys',
  office_products: 'office',
  tools_home_improvement: 'tools',
  pet_supplies: 'pet_supplies',
  furniture: 'furniture',
};

/** details key (lowercased) → normalised attribute; numeric ones carry a parser. */
const DETAIL_ATTRS: Record<string, { attr: string; num?: (s: string) => number | null }> = {
  color: { attr: 'color' },
  colour: { attr: 'color' },
  'color name': { attr: 'color' },
  size: { attr: 'size' },
  material: { attr: 'material' },
  'material type': { attr: 'material' },
  'connector type': { attr: 'connector_type' },
  'connectivity technology': { attr: 'connector_type' },
  wattage: { attr: 'wattage', num: (s) => unitNumber(s, /w|watt/) },
  'item form': { attr: 'item_form' },
  'skin type': { attr: 'skin_type' },
  'finish type': { attr: 'finish_type' },
  'screen size': { attr: 'screen_size_in', num: (s) => unitNumber(s, /in|inch|"/) },
  'standing screen display size': { attr: 'screen_size_in', num: (s) => unitNumber(s, /in|inch|"/) },
  'item weight': { attr: 'weight_lb', num: weightPounds },
  voltage: { attr: 'voltage', num: (s) => unitNumber(s, /v|volt/) },
  style: { attr: 'style' },
  flavor: { attr: 'flavor' },
  scent: { attr: 'scent' },
  'age range (description)': { attr: 'age_range' },
  'power source': { attr: 'power_source' },
};

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function unitNumber(s: string, unit: RegExp): number | null {
  const m = /(-?\d+(?:\.\d+)?)\s*([a-z"]*)/i.exec(s.replace(/,/g, ''));
  if (!m) return null;
  if (m[2] && !unit.test(m[2].toLowerCase())) return null;
  return Number(m[1]);
}

function weightPounds(s: string): number | null {
  const m = /(\d+(?:\.\d+)?)\s*(pounds?|lbs?|ounces?|oz|kilograms?|kg|grams?|g)\b/i.exec(s.replace(/,/g, ''));
  if (!m) return null;
  const v = Number(m[1]);
  const u = m[2].toLowerCase();
  const lb =
    u.startsWith('p') || u.startsWith('lb')
      ? v
      : u.startsWith('o')
        ? v / 16
        : u.startsWith('k')
          ? v * 2.20462
          : v / 453.592;
  return Math.round(lb * 100) / 100;
}

/** "$1,299.00" → 1299; null/""/"None" → MISSING_PRICE; unparseable → undefined. */
export function parsePrice(raw: unknown): number | undefined {
  if (raw === null || raw === undefined) return MISSING_PRICE;
  if (typeof raw === 'number') return Number.isFinite(raw) && raw >= 0 ? Math.round(raw * 100) / 100 : undefined;
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  if (s === '' || s === 'None' || s === 'null') return MISSING_PRICE;
  const m = /^(?:US)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/.exec(s);
  if (!m) return undefined;
  return Math.round(Number(m[1].replace(/,/g, '') + (m[2] ?? '')) * 100) / 100;
}

function parseRating(raw: unknown): number {
  const v = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(v)) return MISSING_RATING;
  return Math.round(Math.min(5, Math.max(1, v)) * 10) / 10;
}

/** Deterministic per-id shipping days: geometric(0.4) by inverse CDF of a hash, clamped 1..14. */
export function shipDaysFor(id: string): number {
  const u = hashUnit('ship_days', id);
  return Math.min(14, Math.max(1, Math.ceil(Math.log(1 - u) / Math.log(1 - 0.4))));
}

/** Deterministic per-id stock: 0 for 10% of ids, else Poisson(20) clamped 1..200. */
export function stockFor(id: string): number {
  if (hashUnit('stock_oos', id) < 0.1) return 0;
  return Math.min(200, Math.max(1, new Rng(hashParts('stock_qty', id)).poisson(20)));
}

function strings(raw: unknown): string[] {
  if (typeof raw === 'string') return raw.trim() ? [raw.trim()] : [];
  if (!Array.isArray(raw)) return [];
  return raw.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

function categoryPath(main: unknown, cats: string[]): string {
  const names = [...(typeof main === 'string' ? [main] : []), ...cats].map(slug).filter(Boolean);
  for (const n of names) {
    // whole-word match, so "toy_weapons" is denied but "sweaponsx" is not
    const denied = DENIED_CATEGORIES.find((d) => `_${n}_`.includes(`_${d}_`));
    if (denied) return `restricted/${denied}`;
  }
  const mainSlug = typeof main === 'string' ? slug(main) : '';
  const first = cats.length ? slug(cats[0]) : '';
  // a deeper category naming one of our departments wins ("Home & Kitchen > Furniture" → furniture)
  const deeper = cats
    .slice(1)
    .map(slug)
    .find((c) => DEPARTMENT_MAP[c] && DEPARTMENT_MAP[c] !== DEPARTMENT_MAP[first]);
  const dept =
    (deeper && DEPARTMENT_MAP[deeper]) ??
    DEPARTMENT_MAP[mainSlug] ??
    DEPARTMENT_MAP[first] ??
    (mainSlug || first || 'uncategorized');
  const leafSrc = cats.length ? slug(cats[cats.length - 1]) : '';
  const leaf = leafSrc && leafSrc !== dept && leafSrc !== mainSlug ? leafSrc : 'general';
  return `${dept}/${leaf}`;
}

function nounFromLeaf(leaf: string): string | undefined {
  if (leaf === 'general') return undefined;
  const words = leaf.split('_');
  words[words.length - 1] = stem(words[words.length - 1]);
  return words.join(' ');
}

export function normaliseAmazonRecord(rec: unknown): NormaliseResult {
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return { error: 'not a JSON object' };
  const r = rec as Record<string, unknown>;
  const id = typeof r.parent_asin === 'string' ? r.parent_asin.trim() : '';
  if (!id) return { error: 'missing parent_asin' };
  const title = typeof r.title === 'string' ? r.title.replace(/\s+/g, ' ').trim() : '';
  if (!title) return { error: 'missing title' };
  const price = parsePrice(r.price);
  if (price === undefined) return { error: `unparseable price ${JSON.stringify(r.price)}` };

  const warnings: string[] = [];
  let details: Record<string, unknown> = {};
  if (typeof r.details === 'string') {
    try {
      const parsed = JSON.parse(r.details);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) details = parsed;
      else warnings.push('details is not an object');
    } catch {
      warnings.push('details is not valid JSON');
    }
  } else if (r.details && typeof r.details === 'object' && !Array.isArray(r.details)) {
    details = r.details as Record<string, unknown>;
  }
  const detailText = (k: string) => {
    const v = details[k];
    return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  };
  const store = typeof r.store === 'string' ? r.store.trim() : '';
  const brand = detailText('Brand') || store || 'Unbranded';

  const attrs: Record<string, string | number> = {};
  for (const key of Object.keys(details)) {
    const map = DETAIL_ATTRS[key.toLowerCase()];
    if (!map || attrs[map.attr] !== undefined) continue;
    const text = detailText(key);
    if (!text) continue;
    if (map.num) {
      const v = map.num(text);
      if (v !== null && Number.isFinite(v)) attrs[map.attr] = v;
    } else attrs[map.attr] = text;
  }

  const category = categoryPath(r.main_category, strings(r.categories));
  const slash = category.indexOf('/');
  const ratingCount = typeof r.rating_number === 'number' && r.rating_number >= 0 ? Math.floor(r.rating_number) : 0;
  const product: Product = {
    id,
    title,
    description: strings(r.description).join(' '),
    category,
    department: category.slice(0, slash),
    brand,
    store: store || brand,
    attrs,
    features: strings(r.features),
    price,
    rating: parseRating(r.average_rating),
    ratingCount,
    shipDays: shipDaysFor(id),
    stockQty: stockFor(id),
  };
  const noun = nounFromLeaf(category.slice(slash + 1));
  if (noun) product.noun = noun;
  return { product, warnings };
}
