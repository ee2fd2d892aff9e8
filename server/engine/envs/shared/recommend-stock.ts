// Stock as the agent could know it, and p_oos for the recommendation goals (PD,
// SUB, RETURN's replacement). SPEC §6: whether a product goes out of stock is
// decided when the agent first sees it, from (episode, product id), so a
// throwaway retrieval defuses nothing; the agent is never penalised for a
// change it could not have seen.

import type { WorldState } from '../../world/state';
import type { PoolEntry, RecommendationSpec } from './recommend';
import type { StockDraw, VerifyContext } from '../types';
import type { PoolPositions } from './pool-positions';
import { poolPositions } from './recommend-pool';

/** world + the turn of the answer being scored (undefined: judge current stock). */
export type StockContext = { world: WorldState; turn?: number };

/**
 * Stock of a product or variant as the agent could know it when it answered: a p_oos
 * change made in turn t counts against answers after turn t, not one given in turn t.
 */
export function knownStock(id: string, catalogStock: number, ctx: StockContext): number {
  if (ctx.turn !== undefined) {
    const change = ctx.world.stockChanges.find((c) => c.id === id && c.turn >= ctx.turn!);
    if (change) return change.before;
  }
  return ctx.world.stockOverrides.get(id) ?? catalogStock;
}

/** id → position, set one by one (`new Map(pool.map((e, i) => [e.id, i]))` made a pair array per entry: ~40 % more CPU). */
function idPositions(pool: readonly PoolEntry[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < pool.length; i++) at.set(pool[i].id, i);
  return at;
}

// The pool's positions by id and the in-stock floor depend on the spec only: built once per spec
// (p_oos and the verifier share them), not per turn or per scoring.
const POOL_INDEX = new WeakMap<RecommendationSpec, { at: PoolPositions; keep: number }>();
export function poolIndex(spec: RecommendationSpec) {
  let index = POOL_INDEX.get(spec);
  if (!index) {
    let inStock = 0;
    for (const e of spec.pool) if (e.rel > 0 && e.stock > 0) inStock++;
    // the column path's positions when it kept them (pool-positions.ts), else a Map of the ids
    POOL_INDEX.set(
      spec,
      (index = { at: poolPositions(spec.pool) ?? idPositions(spec.pool), keep: Math.min(spec.k, inStock) }),
    );
  }
  return index;
}

/** Whether the goal of `spec` would reward the product (a pool entry of positive relevance). */
export function rewardsProduct(spec: RecommendationSpec, id: string): boolean {
  const p = poolIndex(spec).at.get(id);
  return p !== undefined && spec.pool[p].rel > 0;
}

/**
 * p_oos at first sight: each first-seen, in-stock, relevant pool item goes out of stock
 * when its draw hits (probability p_oos), except protected ids and the reference in
 * discovery mode (so an item meeting every constraint stays), and never leaving fewer
 * than min(k, relevant items in stock at generation) relevant items in stock.
 */
export function recommendationOutOfStock(
  spec: RecommendationSpec,
  firstSeen: readonly string[],
  ctx: VerifyContext,
  draw: StockDraw,
): string[] {
  const { at, keep } = poolIndex(spec);
  const inStock = (e: PoolEntry) => (ctx.world.stockOverrides.get(e.id) ?? e.stock) > 0;
  // counted over the whole pool only when a first-seen id could go (most steps show none of it)
  let left = -1;
  const gone: string[] = [];
  for (const id of firstSeen) {
    const p = at.get(id);
    const e = p === undefined ? undefined : spec.pool[p];
    if (!e || e.rel <= 0 || !inStock(e) || ctx.world.protectedStock.has(id)) continue;
    if (spec.mode === 'discovery' && id === spec.referenceId) continue;
    if (left < 0) left = spec.pool.filter((x) => x.rel > 0 && inStock(x)).length;
    if (left - 1 < keep || !draw(id).bernoulli(ctx.axes.p_oos)) continue;
    gone.push(id);
    left--;
  }
  return gone;
}
