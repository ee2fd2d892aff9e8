// Stock as the agent could know it, and p_oos for the recommendation goals (PD,
// SUB, RETURN's replacement). SPEC §6: whether a product goes out of stock is
// decided when the agent first sees it, from (episode, product id), so a
// throwaway retrieval defuses nothing; the agent is never penalised for a
// change it could not have seen.

import type { WorldState } from '../../world/state';
import type { RecommendationSpec } from './recommend';
import type { StockDraw, VerifyContext } from '../types';
import { poolOf } from './evaluation-pool';

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

// min(k, relevant items in stock at generation) depends on the spec only: counted once per spec
// (p_oos reads it at every first sight), not per turn.
const KEEP = new WeakMap<RecommendationSpec, number>();
function keptInStock(spec: RecommendationSpec): number {
  let keep = KEEP.get(spec);
  if (keep === undefined) {
    const pool = poolOf(spec);
    let inStock = 0;
    for (let j = 0; j < pool.length; j++) if (pool.rel(j) > 0 && pool.stock[j] > 0) inStock++;
    KEEP.set(spec, (keep = Math.min(spec.k, inStock)));
  }
  return keep;
}

/** Whether the goal of `spec` would reward the product (a pool entry of positive relevance). */
export function rewardsProduct(spec: RecommendationSpec, id: string): boolean {
  const pool = poolOf(spec);
  const p = pool.positionOf(id);
  return p !== undefined && pool.rel(p) > 0;
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
  const pool = poolOf(spec);
  const keep = keptInStock(spec);
  const inStock = (j: number) => (ctx.world.stockOverrides.get(pool.ids[j]) ?? pool.stock[j]) > 0;
  // counted over the whole pool only when a first-seen id could go (most steps show none of it)
  let left = -1;
  const gone: string[] = [];
  for (const id of firstSeen) {
    const p = pool.positionOf(id);
    if (p === undefined || pool.rel(p) <= 0 || !inStock(p) || ctx.world.protectedStock.has(id)) continue;
    if (spec.mode === 'discovery' && id === spec.referenceId) continue;
    if (left < 0) {
      left = 0;
      for (let j = 0; j < pool.length; j++) if (pool.rel(j) > 0 && inStock(j)) left++;
    }
    if (left - 1 < keep || !draw(id).bernoulli(ctx.axes.p_oos)) continue;
    gone.push(id);
    left--;
  }
  return gone;
}
