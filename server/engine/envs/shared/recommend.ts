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
import { makeConstraints, percentileOfSorted, samplePersonaWeights, type Constraint, type Persona } from './persona';
import { isColumnarCatalog, type ColumnarCatalog } from '../../catalog/columnar-catalog';
import { columnCandidates } from './recommend-pool';
import { keepPool, type PoolEntry } from './evaluation-pool';
import { bagStoreInSlices, bagStoreOf } from './pool-bags';
import type { EnvContext } from '../types';

export type { Constraint, Persona } from './persona';
export type { PoolEntry } from './evaluation-pool';
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
  /** Sorted by relevance, best first (a new list on every read of a built spec: engine code reads poolOf(spec)). */
  readonly pool: PoolEntry[];
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
  if (!isColumnarCatalog(ctx.catalog))
    throw new Error('the evaluation pool reads catalog columns: the catalog must be a ColumnarCatalog');
  const columns = columnCandidates(
    ctx.catalog,
    reference,
    () => constraintFilters(reference.category, constraints),
    SCAN_LIMIT,
    FULL_LIMIT,
  );
  const weights = samplePersonaWeights(rng, constraints, mode === 'substitute' ? ['similarity'] : []);
  const brandConstraint = constraints.find((c) => c.attr === 'brand');
  const brands = columns.brands();
  const preferredBrand = brandConstraint
    ? String(brandConstraint.value)
    : rng.bernoulli(0.5) || brands.length === 0
      ? reference.brand
      : rng.pick(brands);
  const percentile = (q: number) => percentileOfSorted(columns.sortedPrices(), q);
  const priceLow = percentile(0.1);
  const persona: Persona = {
    weights,
    priceLow,
    priceHigh: Math.max(priceLow + 1, percentile(0.9)),
    preferredBrand,
  };
  const scoring = { mode, alpha: ctx.knobs.pdAlpha, lambdaSim: ctx.knobs.lambdaSim };
  const pool = columns.pool(
    constraints,
    persona,
    compatibility,
    excludeIds,
    mode === 'discovery' ? discoveryRelevance(scoring.alpha) : (s, u, sim, c) => relevanceOf(scoring, s, u, sim, c),
    mode === 'discovery',
    POOL_SIZE,
  );
  return keepPool<RecommendationSpec>(
    {
      mode,
      referenceId: reference.id,
      category: reference.category,
      constraints,
      compatibility,
      persona,
      k: opts.k,
      alpha: scoring.alpha,
      lambdaSim: scoring.lambdaSim,
      weights: TASK_WEIGHTS[mode],
      passThreshold: PASS_THRESHOLD,
      excludeIds,
      get pool() {
        return pool.entries();
      },
    },
    pool,
  );
}

export { dcg, idealList, ndcgAt, scoreRecommendations, wantedItems } from './recommend-score';
