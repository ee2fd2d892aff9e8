// Look-alike orders (SPEC §6 rev 3, H_orders): orders of the history that hold a product of the
// target's category or brand, so "the Voltura blender I ordered last week" needs the date, the
// brand or the status to tell them apart. RETURN and STATUS both build their histories of
// 5·H_orders + 5 orders and add H_orders look-alikes to them.

import type { Catalog, Product } from '../catalog/types';
import { isDeniedCategory } from '../catalog/taxonomy';
import type { Rng } from '../random';
import { pickLookAlike } from './look-alike';
import { describeKey, makeLine, orderTotal, sampleProduct, usedDescribeKeys, type Order } from './orders';
import type { WorldState } from './state';

/** The order count of a RETURN or STATUS history at H_orders: 10 at d = 0, 15 at d = 3, 40 at d = 12
 * (a goal-blind guess, e.g. the newest order, names the asked-about one with chance 1/count). */
export const historySize = (hOrders: number) => 5 * hOrders + 5;

/**
 * A product like `product` for a look-alike line: `sameKind` (STATUS, where only the date or the
 * status tells them apart) allows the same brand and category; otherwise (RETURN, where the
 * customer names brand and kind) it shares the category or the brand but keeps describe keys
 * unique in the history, so "the {brand} {noun}" still names exactly one line.
 */
export function lookAlikeProduct(
  catalog: Catalog,
  world: WorldState,
  product: Product,
  rng: Rng,
  sameKind: boolean,
): Product | null {
  if (isDeniedCategory(product.category)) return null;
  const indices = catalog.indicesInCategory(product.category);
  if (sameKind) {
    const index = pickLookAlike(catalog, indices, product, rng);
    return index === null ? null : catalog.at(index);
  }
  const used = usedDescribeKeys(world, catalog);
  for (const ix of rng.sample(indices, 40)) {
    const p = catalog.at(ix);
    if (p.id !== product.id && p.price > 0 && !used.has(describeKey(p))) return p;
  }
  // every brand of the category is taken: the same brand in another category
  return sampleProduct(catalog, rng, used, (p) => p.brand === product.brand && p.id !== product.id);
}

/** Appends `product` as a new line of `order` (never replacing one: another goal may need every line). */
export function addLine(order: Order, product: Product): void {
  order.lines.push(makeLine(order.order_id, order.lines.length + 1, product, 1));
  order.total = orderTotal(order.lines);
}

/** Orders that can take one more line (orders hold 1–5 lines, SPEC §4), else all of them. */
export function roomyOrders(orders: readonly Order[]): Order[] {
  const roomy = orders.filter((o) => o.lines.length < 5);
  return roomy.length > 0 ? roomy : [...orders];
}
