// How a customer talks about things they ordered: "the Voltura wall charger",
// "last week". Shared by the RETURN and STATUS customers.

import { categoryNoun } from '../catalog/taxonomy';
import type { Catalog, Product } from '../catalog/types';
import { categoryOfId } from './catalog-columns';
import { allOrders } from './orders';
import type { WorldState } from './state';

/** The product-kind noun a customer uses ("wall charger"): the catalog's noun, else the category leaf in the singular. */
export function productNoun(p: Pick<Product, 'noun' | 'category'>): string {
  return p.noun ? p.noun.toLowerCase() : categoryNoun(p.category);
}

/** "Voltura wall charger": unique within a history (brand and category are unique per line, orders.ts). */
export const brandAndNoun = (p: Product) => `${p.brand} ${productNoun(p)}`;

/** True when no other line in the customer's history has the same category, so the noun alone names it. */
export function categoryUniqueInHistory(world: WorldState, catalog: Catalog, product: Product): boolean {
  let count = 0;
  for (const o of allOrders(world))
    for (const l of o.lines) if ((categoryOfId(catalog, l.product_id) ?? l.category) === product.category) count++;
  return count <= 1;
}

/** A relative time a person would use for something done `daysAgo` days ago. */
export function timeAgoPhrase(daysAgo: number): string {
  if (daysAgo <= 0) return 'today';
  if (daysAgo === 1) return 'yesterday';
  if (daysAgo < 7) return 'a few days ago';
  if (daysAgo < 14) return 'last week';
  if (daysAgo < 21) return 'about two weeks ago';
  if (daysAgo < 28) return 'about three weeks ago';
  if (daysAgo < 46) return 'about a month ago';
  if (daysAgo < 76) return 'about two months ago';
  return 'about three months ago';
}

/** Days (inclusive) an order.list look-back needs to include this order. */
export const lookBackDays = (daysSincePlaced: number) => Math.min(365, Math.max(30, daysSincePlaced));
