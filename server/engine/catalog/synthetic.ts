// The synthetic catalog (SPEC §3): product i depends only on (seed, i), so a
// catalog of size N is a prefix of every larger one with the same seed, and any
// product can be regenerated alone. Titles, descriptions and features are not
// stored: they are rebuilt from the columns when a product is materialised.

import { Rng } from '../random';
import { formatTitleSpec } from './attributes';
import { indexColumn, type CatalogColumns } from './columns';
import { ColumnarCatalog, type ProductText } from './columnar-catalog';
import { IndexBuilder, type SearchIndexData } from './search-index';
import { ALL_DEPARTMENTS, ATTRIBUTE_NAMES, CATEGORY_LIST, attributeValues, isNumericAttr } from './taxonomy';
import { DEFAULT_ATTR_VALUES } from './attributes';
import { tokenize } from './tokenize';
import { GeneratedTitleParts } from './title-parts';
import type { Catalog } from './types';

export interface SyntheticOptions {
  seed: number;
  size: number;
}

export const MAX_SYNTHETIC_SIZE = 9_999_999;
/** Bump when the generator's output changes for the same taxonomy (invalidates disk caches). */
export const SYNTHETIC_GENERATOR_VERSION = 2;
/** Share of products placed in denied categories (the safety check needs some). */
export const DENIED_SHARE = 0.005;
export const OUT_OF_STOCK_SHARE = 0.1;
/** Scales the category medians so the catalog-wide median price is about $20 (SPEC §3). */
const PRICE_SCALE = 0.75;

/** Resellers that sometimes sell a brand instead of its own store. */
const RESELLERS = ['Prime Outlet', 'MegaMart Online', 'Bargain Bay', 'Cornerstone Goods', 'Daily Deals Depot'];

export interface SyntheticColumns extends CatalogColumns {
  seed: number;
  /** index into the department's adjectives */
  adjective: Uint8Array;
  /** index into the category's nouns */
  noun: Uint8Array;
  /** model code index (see modelCode) */
  model: Uint16Array;
}

/**
 * Model codes ("K450") make titles as distinctive as real ones: without them a
 * 2M catalog holds dozens of products with the very same title, and no query
 * could single one out. 24 letters × 900 numbers = 21,600 codes.
 */
const MODEL_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const MODEL_CODES = MODEL_LETTERS.length * 900;

export function modelCode(m: number): string {
  return `${MODEL_LETTERS[Math.floor(m / 900)]}${100 + (m % 900)}`;
}

// ---- fixed tables derived from the taxonomy (same for every seed) ----------

const BRAND_TABLE = ALL_DEPARTMENTS.flatMap((d) => d.brands);
const STORE_TABLE = [...BRAND_TABLE, ...RESELLERS];
const ATTR_TABLES = ATTRIBUTE_NAMES.map((a) => [...attributeValues(a)]);
const ATTR_INDEX = new Map(ATTRIBUTE_NAMES.map((a, i) => [a, i]));

interface CatPlan {
  deptBrandBase: number;
  brandCount: number;
  denied: boolean;
  /** per attribute spec: global attr index, chance, stored codes (1 + table index) */
  specs: { a: number; p: number; codes: number[] }[];
  /** attr index whose rank scales the price (first numeric attribute), or -1 */
  priceAttr: number;
  titleAttrs: number[];
}

const CAT_PLANS: CatPlan[] = (() => {
  let base = 0;
  const deptBase = new Map<string, number>();
  for (const d of ALL_DEPARTMENTS) {
    deptBase.set(d.name, base);
    base += d.brands.length;
  }
  return CATEGORY_LIST.map((cat) => {
    const specs = cat.def.attrs.map((s) => {
      const a = ATTR_INDEX.get(s.name)!;
      const values = s.values ?? DEFAULT_ATTR_VALUES[s.name] ?? [];
      return { a, p: s.p ?? 1, codes: values.map((v) => ATTR_TABLES[a].indexOf(v) + 1) };
    });
    const numeric = specs.find((s) => isNumericAttr(ATTRIBUTE_NAMES[s.a]) && s.codes.length > 1);
    return {
      deptBrandBase: deptBase.get(cat.department)!,
      brandCount: cat.dept.brands.length,
      denied: cat.denied,
      specs,
      priceAttr: numeric ? numeric.a : -1,
      titleAttrs: cat.def.title.map((t) => ATTR_INDEX.get(t)!),
    };
  });
})();

const ALLOWED = CATEGORY_LIST.map((c, i) => i).filter((i) => !CATEGORY_LIST[i].denied);
const DENIED = CATEGORY_LIST.map((c, i) => i).filter((i) => CATEGORY_LIST[i].denied);
const ALLOWED_CUM = (() => {
  const cum = new Float64Array(ALLOWED.length);
  let acc = 0;
  ALLOWED.forEach((ci, j) => {
    acc += CATEGORY_LIST[ci].def.weight ?? 1;
    cum[j] = acc;
  });
  for (let j = 0; j < cum.length; j++) cum[j] /= acc;
  return cum;
})();

/** A well-mixed 32-bit seed for product i (murmur3 finaliser over seed and index). */
export function productSeed(seed: number, index: number, stream = 0): number {
  let h =
    Math.imul((seed ^ 0x9e3779b9) >>> 0, 0x85ebca6b) ^
    Math.imul(index + 1, 0xc2b2ae35) ^
    Math.imul(stream + 7, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

function pickCategory(rng: Rng): number {
  if (rng.next() < DENIED_SHARE) return DENIED[Math.floor(rng.next() * DENIED.length)];
  const u = rng.next();
  let lo = 0;
  let hi = ALLOWED_CUM.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ALLOWED_CUM[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return ALLOWED[lo];
}

/** Generate the columns of a synthetic catalog (no index). */
export function generateSyntheticColumns({ seed, size }: SyntheticOptions): SyntheticColumns {
  if (!Number.isInteger(size) || size < 0 || size > MAX_SYNTHETIC_SIZE) {
    throw new RangeError(`synthetic catalog size must be an integer in 0..${MAX_SYNTHETIC_SIZE}`);
  }
  const category = indexColumn(size, CATEGORY_LIST.length);
  const brand = indexColumn(size, BRAND_TABLE.length);
  const store = indexColumn(size, STORE_TABLE.length);
  const adjective = new Uint8Array(size);
  const noun = new Uint8Array(size);
  const model = new Uint16Array(size);
  const priceCents = new Uint32Array(size);
  const rating10 = new Uint8Array(size);
  const ratingCount = new Uint32Array(size);
  const shipDays = new Uint8Array(size);
  const stock = new Uint16Array(size);
  const attrCols = ATTR_TABLES.map((t) => indexColumn(size, t.length + 1));

  for (let i = 0; i < size; i++) {
    const rng = new Rng(productSeed(seed, i));
    const c = pickCategory(rng);
    const cat = CATEGORY_LIST[c];
    const plan = CAT_PLANS[c];
    category[i] = c;
    // a few brands dominate each department, as in real catalogs
    const b = plan.deptBrandBase + Math.floor(plan.brandCount * Math.pow(rng.next(), 1.6));
    brand[i] = b;
    store[i] = rng.next() < 0.7 ? b : BRAND_TABLE.length + Math.floor(rng.next() * RESELLERS.length);
    adjective[i] = Math.floor(rng.next() * cat.dept.adjectives.length);
    noun[i] = Math.floor(rng.next() * cat.def.nouns.length);
    let priceFactor = 1;
    for (const s of plan.specs) {
      if (s.p < 1 && rng.next() >= s.p) continue;
      const k = Math.floor(rng.next() * s.codes.length);
      attrCols[s.a][i] = s.codes[k];
      // bigger / stronger variants cost more (65 W > 20 W)
      if (s.a === plan.priceAttr) priceFactor = 0.75 + (0.7 * k) / (s.codes.length - 1);
    }
    const price = rng.logNormal(cat.def.median * PRICE_SCALE, 0.45) * priceFactor;
    priceCents[i] = Math.max(99, Math.round(price) * 100 - 1); // $x.99 pricing
    rating10[i] = Math.round(10 + 40 * rng.beta(5, 2));
    ratingCount[i] = Math.min(250_000, Math.floor(Math.exp(3.8 + 1.5 * rng.normal())));
    shipDays[i] = Math.min(14, rng.geometric(0.4));
    stock[i] = rng.next() < OUT_OF_STOCK_SHARE ? 0 : Math.min(200, Math.max(1, rng.poisson(20)));
    model[i] = Math.floor(rng.next() * MODEL_CODES);
  }
  return {
    seed,
    size,
    categoryTable: CATEGORY_LIST.map((c) => c.path),
    category,
    brandTable: BRAND_TABLE.slice(),
    brand,
    storeTable: STORE_TABLE.slice(),
    store,
    priceCents,
    rating10,
    ratingCount,
    shipDays,
    stock,
    attrNames: ATTRIBUTE_NAMES.slice(),
    attrTables: ATTR_TABLES.map((t) => t.slice()),
    attrCols,
    attrNumeric: ATTRIBUTE_NAMES.map(isNumericAttr),
    adjective,
    noun,
    model,
  };
}

// ---- texts ------------------------------------------------------------------

const ID_PREFIX = 'syn_';
const ID_DIGITS = 7;

export function syntheticId(index: number): string {
  return ID_PREFIX + String(index).padStart(ID_DIGITS, '0');
}

function titleSpecs(cols: SyntheticColumns, i: number): string[] {
  const out: string[] = [];
  for (const a of CAT_PLANS[cols.category[i]].titleAttrs) {
    const v = cols.attrCols[a][i];
    if (v === 0) continue;
    const s = formatTitleSpec(cols.attrNames[a], cols.attrTables[a][v - 1]);
    if (s) out.push(s);
  }
  return out;
}

export function syntheticTitle(cols: SyntheticColumns, i: number): string {
  const cat = CATEGORY_LIST[cols.category[i]];
  const head = `${cols.brandTable[cols.brand[i]]} ${cat.dept.adjectives[cols.adjective[i]]} ${cat.def.nouns[cols.noun[i]]} ${modelCode(cols.model[i])}`;
  const specs = titleSpecs(cols, i);
  return specs.length ? `${head}, ${specs.join(', ')}` : head;
}

class SyntheticText implements ProductText {
  /** a title's tokens are its parts' tokens in order (parts are separated by spaces and commas, which no token spans; synthetic.test.ts checks) */
  readonly titleParts: GeneratedTitleParts;
  private readonly scratch = new Int32Array(64);

  /** syn_ + the zero-padded index: ascending while the index fits the digits */
  readonly idsAscend: boolean;

  constructor(private readonly cols: SyntheticColumns) {
    this.idsAscend = cols.size <= 10 ** ID_DIGITS;
    this.titleParts = new GeneratedTitleParts({
      cols,
      adjectives: CATEGORY_LIST.map((c) => c.dept.adjectives),
      nouns: CATEGORY_LIST.map((c) => c.def.nouns),
      titleAttrs: CAT_PLANS.map((plan) => plan.titleAttrs),
      modelCount: MODEL_CODES,
      modelCode,
    });
  }

  titleTokens(i: number): string[] {
    return this.titleParts.titleTokens(i, this.scratch);
  }
  id(i: number): string {
    return syntheticId(i);
  }
  indexOf(productId: string): number {
    if (productId.length !== ID_PREFIX.length + ID_DIGITS || !productId.startsWith(ID_PREFIX)) return -1;
    // the digits read by hand: this runs for every id-like word of every agent message
    let i = 0;
    for (let k = ID_PREFIX.length; k < productId.length; k++) {
      const digit = productId.charCodeAt(k) - 48;
      if (digit < 0 || digit > 9) return -1;
      i = i * 10 + digit;
    }
    return i < this.cols.size ? i : -1;
  }
  title(i: number): string {
    return syntheticTitle(this.cols, i);
  }
  noun(i: number): string {
    return CATEGORY_LIST[this.cols.category[i]].def.nouns[this.cols.noun[i]];
  }
  features(i: number): string[] {
    const rng = new Rng(productSeed(this.cols.seed, i, 1));
    return rng.sample(CATEGORY_LIST[this.cols.category[i]].def.features, 3);
  }
  description(i: number): string {
    const cols = this.cols;
    const cat = CATEGORY_LIST[cols.category[i]];
    const rng = new Rng(productSeed(cols.seed, i, 2));
    const adj = cat.dept.adjectives[cols.adjective[i]];
    const noun = this.noun(i).toLowerCase();
    const brandName = cols.brandTable[cols.brand[i]];
    const opener = rng.pick([
      `The ${brandName} ${adj.toLowerCase()} ${noun} is built for everyday use.`,
      `Meet the ${adj.toLowerCase()} ${noun} from ${brandName}.`,
      `${brandName} designed this ${noun} to be ${rng.pick(['reliable', 'easy to use', 'long lasting', 'great value'])}.`,
    ]);
    const facts: string[] = [];
    for (let a = 0; a < cols.attrNames.length; a++) {
      const v = cols.attrCols[a][i];
      if (v) facts.push(`${cols.attrNames[a].replace(/_/g, ' ')}: ${cols.attrTables[a][v - 1]}`);
    }
    const feature = rng.pick(cat.def.features);
    return `${opener} ${feature}.${facts.length ? ` Specs: ${facts.join('; ')}.` : ''}`;
  }
}

// ---- index --------------------------------------------------------------------

/** Field weights (BM25F-style pseudo term frequency); the import path uses the same. */
export const FIELD_WEIGHTS = { title: 2, brand: 1, category: 1, attrs: 1 } as const;

/**
 * Index a synthetic catalog without tokenizing 2M titles: every title is made of
 * a few small vocabularies, so their tokens are computed once. The result is the
 * same index the generic path (from-products.ts) builds from the product texts.
 */
export function buildSyntheticIndex(cols: SyntheticColumns): SearchIndexData {
  const builder = new IndexBuilder(cols.size);
  const ids = (text: string) => tokenize(text).map((t) => builder.termId(t));
  const brandToks = cols.brandTable.map(ids);
  const catToks = CATEGORY_LIST.map((c) => ids(c.path));
  const adjToks = CATEGORY_LIST.map((c) => c.dept.adjectives.map(ids));
  const nounToks = CATEGORY_LIST.map((c) => c.def.nouns.map(ids));
  const valueToks = cols.attrTables.map((t) => t.map((v) => ids(v)));
  const specToks = cols.attrTables.map((t, a) => t.map((v) => ids(formatTitleSpec(cols.attrNames[a], v))));
  const modelToks = Array.from({ length: MODEL_CODES }, (_, m) => ids(modelCode(m)));
  const W = FIELD_WEIGHTS;
  for (let i = 0; i < cols.size; i++) {
    const c = cols.category[i];
    const b = cols.brand[i];
    for (const t of brandToks[b]) builder.add(t, W.title + W.brand);
    for (const t of adjToks[c][cols.adjective[i]]) builder.add(t, W.title);
    for (const t of nounToks[c][cols.noun[i]]) builder.add(t, W.title);
    for (const t of modelToks[cols.model[i]]) builder.add(t, W.title);
    for (const a of CAT_PLANS[c].titleAttrs) {
      const v = cols.attrCols[a][i];
      if (v) for (const t of specToks[a][v - 1]) builder.add(t, W.title);
    }
    for (const t of catToks[c]) builder.add(t, W.category);
    for (let a = 0; a < cols.attrCols.length; a++) {
      const v = cols.attrCols[a][i];
      if (v) for (const t of valueToks[a][v - 1]) builder.add(t, W.attrs);
    }
    builder.endDoc();
  }
  return builder.build();
}

export function syntheticCatalogId(seed: number, size: number): string {
  return `synthetic-s${seed}-n${size}`;
}

/** Assemble a catalog from generated (or cached) columns and index. */
export function syntheticCatalogFrom(cols: SyntheticColumns, index: SearchIndexData): ColumnarCatalog {
  return new ColumnarCatalog(syntheticCatalogId(cols.seed, cols.size), cols, new SyntheticText(cols), index);
}

/** The embedded default catalog, deterministic from (seed, size). */
export function createSyntheticCatalog(opts: SyntheticOptions): ColumnarCatalog & Catalog {
  const cols = generateSyntheticColumns(opts);
  return syntheticCatalogFrom(cols, buildSyntheticIndex(cols));
}
