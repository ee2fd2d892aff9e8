// Product similarity for φ_sim (persona utility) and SUB relevance (SPEC §7).
// No embedding model: TF-IDF cosine over a bag of features per product —
// title tokens (the catalog tokenizer, so "USB-C" / "usbc" agree), the category
// path and department as single tokens, and one token per attribute=value pair
// (so two chargers share "connector_type=usb-c" even when titles differ).
// IDF is computed over the documents being compared (the candidate set plus the
// reference; for huge categories, the category's stride sample plus the
// reference), smoothed: idf(t) = ln((1 + N) / (1 + df(t))) + 1. Result in [0, 1].
// This is the definition; the evaluation pool computes the same floats over term ids
// (pool-terms.ts, pool-bags.ts), and only the equivalence tests run this one.

import { tokenize } from '../../../catalog/tokenize';
import type { Product } from '../../../catalog/types';

export type FeatureBag = Map<string, number>;

// Bags are a pure function of the product, and tokenizing titles dominates the
// cost, so they are cached per catalog (keyed by the catalog object) and id.
const BAG_CACHE = new WeakMap<object, Map<string, FeatureBag>>();

/** productFeatures, cached per (catalog, product id). */
export function cachedFeatures(catalog: object, p: Product): FeatureBag {
  let byId = BAG_CACHE.get(catalog);
  if (!byId) BAG_CACHE.set(catalog, (byId = new Map()));
  let bag = byId.get(p.id);
  if (!bag) byId.set(p.id, (bag = productFeatures(p)));
  return bag;
}

export function productFeatures(p: Product): FeatureBag {
  return featureBag(tokenize(p.title), p);
}

/** The bag from the title's tokens and the product's other fields (recommend-pool.ts reads them from columns). */
export function featureBag(
  titleTokens: readonly string[],
  p: Pick<Product, 'category' | 'department' | 'attrs'>,
): FeatureBag {
  const bag: FeatureBag = new Map();
  const add = (t: string) => bag.set(t, (bag.get(t) ?? 0) + 1);
  for (const t of titleTokens) add(t);
  add(`cat:${p.category.toLowerCase()}`);
  add(`dept:${p.department.toLowerCase()}`);
  for (const [attr, value] of Object.entries(p.attrs)) add(`${attr}=${String(value).toLowerCase()}`);
  return bag;
}

const DF_CACHE = new WeakMap<readonly Product[], Map<string, number>>();

function documentFrequencies(bags: readonly FeatureBag[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const bag of bags) for (const t of bag.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/**
 * Cosine similarity of the reference to each candidate, with IDF over `idfDocs`
 * (default: the candidates) plus the reference. Pass `cacheKey` (the catalog) to
 * reuse feature bags across calls; document frequencies are then cached per
 * `idfDocs` array too (callers pass the same cached array for a category).
 */
export function similarities(
  reference: Product,
  candidates: readonly Product[],
  cacheKey?: object,
  idfDocs: readonly Product[] = candidates,
): number[] {
  const bagOf = (p: Product) => (cacheKey ? cachedFeatures(cacheKey, p) : productFeatures(p));
  const refBag = bagOf(reference);
  const bags = candidates.map(bagOf);
  let df = cacheKey ? DF_CACHE.get(idfDocs) : undefined;
  if (!df) {
    df = documentFrequencies(idfDocs === candidates ? bags : idfDocs.map(bagOf));
    if (cacheKey) DF_CACHE.set(idfDocs, df);
  }
  const n = idfDocs.length + 1;
  const idf = (t: string) => Math.log((1 + n) / (1 + (df!.get(t) ?? 0) + (refBag.has(t) ? 1 : 0))) + 1;
  const refW = new Map<string, number>();
  let refSq = 0;
  for (const [t, tf] of refBag) {
    const x = tf * idf(t);
    refW.set(t, x);
    refSq += x * x;
  }
  const refNorm = Math.sqrt(refSq);
  return bags.map((bag) => {
    let dot = 0;
    let sq = 0;
    for (const [t, tf] of bag) {
      const x = tf * idf(t);
      sq += x * x;
      const r = refW.get(t);
      if (r !== undefined) dot += x * r;
    }
    if (refNorm === 0 || sq === 0) return 0;
    return Math.min(1, Math.max(0, dot / (refNorm * Math.sqrt(sq))));
  });
}
