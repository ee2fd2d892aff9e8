// RETURN's target cases (SPEC §7): which case an episode draws (eligible, at the window's edge,
// past it, not returnable), how long ago the target was delivered for it, and the target and
// replacement-reference products that fit it. Beside return.ts (its generator and verifier).

import type { Rng } from '../../random';
import {
  HISTORY_DAYS,
  replaceLineProduct,
  sampleFromCategories,
  sampleProduct,
  usedDescribeKeys,
  type Order,
} from '../../world/orders';
import { returnWindowDays } from '../../world/returns';
import type { EnvContext } from '../types';

export type ReturnCase = 'eligible' | 'edge_minus_1' | 'edge_0' | 'edge_plus_1' | 'past_window' | 'not_returnable';

/** Share of ineligible-by-design targets outside the edge cases, relative to p_edge. */
const CLEAR_INELIGIBLE_SHARE = 0.25;

export function pickCase(ctx: EnvContext, rng: Rng): ReturnCase {
  const pEdge = ctx.knobs.pEdge;
  if (rng.bernoulli(pEdge)) return rng.pick(['edge_minus_1', 'edge_0', 'edge_plus_1'] as const);
  if (rng.bernoulli(CLEAR_INELIGIBLE_SHARE * pEdge)) return rng.bernoulli(0.5) ? 'not_returnable' : 'past_window';
  return 'eligible';
}

export function deliveredDaysAgo(kase: ReturnCase, window: number, rng: Rng): number {
  switch (kase) {
    case 'eligible':
      return rng.int(0, window - 2);
    case 'edge_minus_1':
      return window - 1;
    case 'edge_0':
      return window;
    case 'edge_plus_1':
      return window + 1;
    case 'past_window':
      return rng.int(window + 5, Math.min(window + 30, HISTORY_DAYS - 2));
    case 'not_returnable':
      return rng.int(0, 40);
  }
}

/** Make the target line's product fit the case: a grocery item for not_returnable, a returnable one otherwise. */
export function shapeTargetProduct(
  ctx: EnvContext,
  rng: Rng,
  order: Order,
  lineIndex: number,
  kase: ReturnCase,
): ReturnCase {
  const { catalog, world } = ctx;
  const line = order.lines[lineIndex];
  const used = usedDescribeKeys(world, catalog);
  if (kase === 'not_returnable') {
    if (returnWindowDays(line.category) === 0) return kase;
    const groceries = catalog.categories().filter((c) => returnWindowDays(c) === 0);
    const p = sampleFromCategories(catalog, rng, groceries, used);
    if (p) {
      replaceLineProduct(order, line, p);
      return kase;
    }
    kase = 'past_window'; // a catalog without groceries: ineligible by date instead
  }
  if (returnWindowDays(line.category) === 0) {
    const p = sampleProduct(catalog, rng, used, (x) => returnWindowDays(x.category) > 0);
    if (!p) throw new Error(`RETURN: catalog ${catalog.id} has no returnable product`);
    replaceLineProduct(order, line, p);
  }
  return kase;
}

/** A buyable product of the same kind, other than the returned one, to model the replacement request on. */
export function replacementReference(ctx: EnvContext, rng: Rng, category: string, excludeId: string, qty: number) {
  for (const ix of rng.sample(ctx.catalog.indicesInCategory(category), 60)) {
    const p = ctx.catalog.at(ix);
    if (p.id !== excludeId && p.stockQty >= Math.max(5, qty + 2)) return p;
  }
  return null;
}
