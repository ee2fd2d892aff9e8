// The shared recommendation verifier (SPEC §7, PD and SUB; RETURN's replacement
// score): constraints, persona utility, the evaluation pool, nDCG@k and the
// PD-style r_task with per-item evidence. See docs/environments.md.
//
// Choices (documented there too):
// - Candidates are the reference's leaf category: the customer asks for a kind of
//   product ("a wall charger"), so other categories are not relevant. Categories
//   larger than SCAN_LIMIT (huge catalogs) are cut to every product meeting all
//   constraints (a filtered search, up to FULL_LIMIT) plus an even stride sample
//   (cached, and the IDF of the similarity comes from it).
// - Pool: the top POOL_SIZE candidates by (s, u) (discovery) or by relevance
//   (substitute), stored sorted by relevance. Products outside the pool have
//   relevance 0, so nDCG ≤ 1 and cannot be gamed with off-request products.
// - Relevance: discovery rel = u(p)·s(p)^α (= u(p) for products meeting every
//   constraint); substitute rel = λ·sim + (1 − λ)·s, and 0 when a compatibility
//   constraint fails. An item out of stock has relevance 0 (it cannot be bought).
// - Stock is judged as the agent could know it at the answer: p_oos changes made in
//   turn t count against answers after turn t (the agent could re-check), not against
//   an answer given in turn t itself (recommend-stock.ts).
// - What the customer wants (revision 2): the in-stock pool items meeting every
//   constraint; when none is in stock, the closest matches (the highest satisfaction
//   any in-stock item reaches). Other items have relevance 0 (the customer rejects
//   them), the ideal list is the wanted items in relevance order (length min(k, how
//   many exist)), so recommending exactly those passes, and r_cons is measured
//   against the best reachable satisfaction: 2·(s_best / s_max)^α − 1.
// - r_oos = 1 − 2·(share out of stock or unknown) (FIX: the literal −share caps
//   r_task at 0.90 < the 0.95 pass mark).

import type { Product, SearchFilters } from '../../catalog/types';
import type { Rng } from '../../random';
import { PASS_THRESHOLD } from '../../reward';
import {
  constraintMet,
  makeConstraints,
  percentileOfSorted,
  pricePercentile,
  samplePersonaWeights,
  satisfaction,
  utility,
  type Constraint,
  type Persona,
} from './persona';
import { ColumnarCatalog } from '../../catalog/columnar-catalog';
import { columnCandidates, type PoolEntry } from './recommend-pool';
import { bagStoreInSlices, bagStoreOf } from './pool-bags';
import { similarities } from './similarity';
import type { EnvContext } from '../types';

export type { Constraint, Persona } from './persona';
export type { PoolEntry } from './recommend-pool';
export { knownStock, recommendationOutOfStock, type StockContext } from './recommend-stock';

export const POOL_SIZE = 500;
const SCAN_LIMIT = 1500;
const FULL_LIMIT = 600;

export type RecommendationMode = 'discovery' | 'substitute';

export interface RecommendationSpec {
  mode: RecommendationMode;
  /** PD: the target; SUB: the out-of-stock original; RETURN: the replacement's model. */
  referenceId: string;
  category: string;
  constraints: Constraint[];
  /** Attributes whose equality constraint gates relevance (SUB compatibility). */
  compatibility: string[];
  persona: Persona;
  k: number;
  alpha: number;
  lambdaSim: number;
  weights: { rank: number; cons: number; oos: number };
  passThreshold: number;
  /** Never relevant (SUB's original, a returned item). */
  excludeIds: string[];
  /** Sorted by relevance, best first. */
  pool: PoolEntry[];
}

export interface RecommendationOptions {
  reference: Product;
  mode: RecommendationMode;
  /** Number of constraints (capped by what the reference has). */
  n: number;
  /** nDCG cut-off (items to recommend). */
  k: number;
  /** Attributes constrained first (PD: ["price"]). */
  required?: string[];
  exclude?: string[];
  compatibility?: string[];
  excludeIds?: string[];
  /** Use these constraints instead of sampling them. */
  constraints?: Constraint[];
}

export const TASK_WEIGHTS: Record<RecommendationMode, RecommendationSpec['weights']> = {
  discovery: { rank: 0.55, cons: 0.35, oos: 0.1 },
  substitute: { rank: 0.8, cons: 0, oos: 0.2 },
};

/** The filtered search of a large category's candidates: every constraint as a search filter. */
export function constraintFilters(category: string, constraints: readonly Constraint[]): SearchFilters {
  const f: Record<string, string | number> = { category };
  for (const c of constraints) {
    if (c.attr === 'price') f[c.op === 'max' ? 'price_max' : 'price_min'] = Number(c.value);
    else if (c.attr === 'rating') f.rating_min = Number(c.value);
    else if (c.attr === 'ship_days') f.ship_days_max = Number(c.value);
    else if (c.op === 'eq') f[c.attr] = String(c.value);
    else f[`${c.attr}_${c.op}`] = Number(c.value);
  }
  return f as SearchFilters;
}

// Materialised products of a category (catalog data is immutable; nothing here mutates them), per catalog object.
const CATEGORY_CACHE = new WeakMap<object, Map<string, Product[]>>();

function categoryProducts(catalog: EnvContext['catalog'], category: string, indices: readonly number[]): Product[] {
  // cacheKey `category` holds the whole category; `category#sample` a stride sample
  let byCategory = CATEGORY_CACHE.get(catalog);
  if (!byCategory) CATEGORY_CACHE.set(catalog, (byCategory = new Map()));
  let list = byCategory.get(category);
  if (!list) byCategory.set(category, (list = indices.map((i) => catalog.at(i))));
  return list;
}

/**
 * Builds the catalog's evaluation-pool store now (the first PD/SUB/RETURN/JOURNEY reset does it
 * otherwise: about a second at 100k products). storeAllLimit, keptTerms and localLimit are for tests (pool-bags.ts).
 */
export function prepareEvaluationPools(
  catalog: ColumnarCatalog,
  storeAllLimit?: number,
  keptTerms?: number,
  localLimit?: number,
): void {
  bagStoreOf(catalog, SCAN_LIMIT, storeAllLimit, keptTerms, localLimit);
}

/** prepareEvaluationPools one category at a time, awaiting `pause` in between (a server's event loop). */
export async function prepareEvaluationPoolsInSlices(catalog: ColumnarCatalog, pause: () => Promise<void>) {
  await bagStoreInSlices(catalog, SCAN_LIMIT, pause);
}

/** The candidates, and the documents IDF is computed over (the whole category, or its cached stride sample). */
function candidateProducts(
  ctx: EnvContext,
  reference: Product,
  constraints: readonly Constraint[],
): { candidates: Product[]; idfDocs: Product[] } {
  const { catalog } = ctx;
  const all = catalog.indicesInCategory(reference.category);
  if (all.length <= SCAN_LIMIT) {
    const whole = categoryProducts(catalog, reference.category, all);
    return { candidates: whole, idfDocs: whole };
  }
  const out = new Map<string, Product>();
  for (const hit of catalog.search({
    query: '',
    filters: constraintFilters(reference.category, constraints),
    topK: FULL_LIMIT,
  })) {
    const p = catalog.get(hit.productId);
    if (p) out.set(p.id, p);
  }
  const stride = all.length / SCAN_LIMIT;
  const sample = categoryProducts(
    catalog,
    `${reference.category}#sample`,
    Array.from({ length: SCAN_LIMIT }, (_, j) => all[Math.floor(j * stride)]),
  );
  for (const p of sample) if (!out.has(p.id)) out.set(p.id, p);
  out.set(reference.id, reference);
  return { candidates: [...out.values()], idfDocs: sample };
}

export function relevanceOf(
  spec: Pick<RecommendationSpec, 'mode' | 'alpha' | 'lambdaSim'>,
  s: number,
  u: number,
  sim: number,
  compatible: boolean,
): number {
  if (spec.mode === 'discovery') return u * Math.pow(s, spec.alpha);
  return compatible ? spec.lambdaSim * sim + (1 - spec.lambdaSim) * s : 0;
}

/**
 * relevanceOf in discovery mode for one pool: u·s^α with s^α computed once per value of s (s is the
 * share of constraints met, so a pool has a handful of them; Math.pow was ~2 % of a reset). The
 * same s gives the same power, so every relevance is the same float.
 */
function discoveryRelevance(alpha: number): (s: number, u: number) => number {
  const seen: number[] = [];
  const powers: number[] = [];
  return (s, u) => {
    let j = seen.indexOf(s);
    if (j < 0) {
      j = seen.push(s) - 1;
      powers.push(Math.pow(s, alpha));
    }
    return u * powers[j];
  };
}

const byRel = (a: PoolEntry, b: PoolEntry) => b.rel - a.rel || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The generator side: constraints, persona and the evaluation pool for one reference product. */
export function buildRecommendationSpec(ctx: EnvContext, rng: Rng, opts: RecommendationOptions): RecommendationSpec {
  const { reference, mode } = opts;
  const constraints =
    opts.constraints ??
    makeConstraints(reference, opts.n, ctx.knobs.deltaMax, rng, { required: opts.required, exclude: opts.exclude });
  const compatibility = (opts.compatibility ?? []).filter((a) =>
    constraints.some((c) => c.attr === a && c.op === 'eq'),
  );
  const excludeIds = [...new Set([...(opts.excludeIds ?? []), ...(mode === 'substitute' ? [reference.id] : [])])];
  // Column reads on the one real catalog type (recommend-pool.ts); products otherwise. Same results.
  const columns =
    ctx.catalog instanceof ColumnarCatalog
      ? columnCandidates(
          ctx.catalog,
          reference,
          () => constraintFilters(reference.category, constraints),
          SCAN_LIMIT,
          FULL_LIMIT,
        )
      : null;
  const { candidates, idfDocs } = columns
    ? { candidates: [], idfDocs: [] }
    : candidateProducts(ctx, reference, constraints);
  const weights = samplePersonaWeights(rng, constraints, mode === 'substitute' ? ['similarity'] : []);
  const brandConstraint = constraints.find((c) => c.attr === 'brand');
  const brands = columns ? columns.brands() : [...new Set(candidates.map((p) => p.brand))].sort();
  const preferredBrand = brandConstraint
    ? String(brandConstraint.value)
    : rng.bernoulli(0.5) || brands.length === 0
      ? reference.brand
      : rng.pick(brands);
  const percentile = columns
    ? (q: number) => percentileOfSorted(columns.sortedPrices(), q)
    : (q: number) =>
        pricePercentile(
          candidates.map((p) => p.price),
          q,
        );
  const priceLow = percentile(0.1);
  const persona: Persona = {
    weights,
    priceLow,
    priceHigh: Math.max(priceLow + 1, percentile(0.9)),
    preferredBrand,
  };
  const spec: RecommendationSpec = {
    mode,
    referenceId: reference.id,
    category: reference.category,
    constraints,
    compatibility,
    persona,
    k: opts.k,
    alpha: ctx.knobs.pdAlpha,
    lambdaSim: ctx.knobs.lambdaSim,
    weights: TASK_WEIGHTS[mode],
    passThreshold: PASS_THRESHOLD,
    excludeIds,
    pool: [],
  };
  if (columns) {
    spec.pool = columns.pool(
      constraints,
      persona,
      compatibility,
      excludeIds,
      mode === 'discovery' ? discoveryRelevance(spec.alpha) : (s, u, sim, c) => relevanceOf(spec, s, u, sim, c),
      mode === 'discovery',
      POOL_SIZE,
    );
    return spec;
  }
  const entries: PoolEntry[] = [];
  const sims = similarities(reference, candidates, ctx.catalog, idfDocs);
  const excluded = new Set(excludeIds);
  candidates.forEach((p, i) => {
    if (excluded.has(p.id)) return;
    const s = satisfaction(p, constraints);
    const u = utility(p, persona, sims[i]);
    const compatible = compatibility.every((a) =>
      constraintMet(
        p,
        constraints.find((c) => c.attr === a)!,
      ),
    );
    entries.push({
      id: p.id,
      s,
      u,
      sim: sims[i],
      rel: relevanceOf(spec, s, u, sims[i], compatible),
      stock: p.stockQty,
    });
  });
  if (mode === 'discovery') entries.sort((a, b) => b.s - a.s || b.u - a.u || byRel(a, b));
  else entries.sort(byRel);
  spec.pool = entries.slice(0, POOL_SIZE).sort(byRel);
  return spec;
}

export { dcg, idealList, ndcgAt, scoreRecommendations, wantedItems } from './recommend-score';
