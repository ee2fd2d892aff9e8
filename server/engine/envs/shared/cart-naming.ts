// How the CART customer names an item: by title (with its price when another product has the
// same title), by brand and kind when it comes from the visit history, with quantity and variant
// unless those are left for the agent to ask.

import { categoryNoun } from '../../catalog/taxonomy';
import { hasTitleTwin } from '../../catalog/title-twins';
import type { Catalog, Product } from '../../catalog/types';
import type { Slot } from '../../customer/slots';
import type { CartItemGoal } from '../cart';

export const humanAttr = (attr: string) => attr.replace(/_/g, ' ');

// Whether a product of a columnar catalog (frozen products, fixed titles) has a title twin never
// changes: kept per catalog and product id, since the postings walk was ~15% of a CART reset
// (issue 13; bounded). A product that can still change is checked every time.
const TWINS = new WeakMap<Catalog, Map<string, boolean>>();
function hasTwin(catalog: Catalog, p: Product): boolean {
  if (!Object.isFrozen(p)) return hasTitleTwin(catalog, p);
  let known = TWINS.get(catalog);
  if (!known) TWINS.set(catalog, (known = new Map()));
  let twin = known.get(p.id);
  if (twin === undefined) {
    twin = hasTitleTwin(catalog, p);
    if (known.size < 200_000) known.set(p.id, twin);
  }
  return twin;
}

function itemName(item: CartItemGoal, catalog: Catalog): string {
  const p = catalog.get(item.productId)!;
  if (item.viaHistory) return `the ${p.brand} ${categoryNoun(p.category)} I was looking at earlier`;
  return hasTwin(catalog, p) ? `the ${item.title} (the one for $${p.price.toFixed(2)})` : `the ${item.title}`;
}

export function describeItem(item: CartItemGoal, slots: Slot[], catalog: Catalog): string {
  const qtySlot = slots.find((s) => s.id === `qty:${item.productId}`);
  const variantSlot = slots.find((s) => s.id === `variant:${item.productId}`);
  const count = qtySlot && !qtySlot.omitted ? `${item.qty} of ` : '';
  const variant = variantSlot && !variantSlot.omitted ? ` in ${humanAttr(item.variantAttr!)} ${item.variantValue}` : '';
  return `${count}${itemName(item, catalog)}${variant}`;
}

/** Words a question would use to name a product: its brand and its kind. */
export const subjectWords = (p: Product) =>
  [p.brand, ...categoryNoun(p.category).split(' ')].filter((w) => w.length > 2);
