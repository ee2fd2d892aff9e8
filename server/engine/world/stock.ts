// Stock as the agent sees it: catalog stock, unless the episode changed it
// (items going out of stock mid-episode, p_oos).

import type { Catalog, Product } from '../catalog/types';
import type { WorldState } from './state';
import { findVariant, variantsOf, type Variant } from './variants';

/**
 * A number that changes whenever the episode's stock does. Overrides are only ever *added*, at 0,
 * for an id in stock: SUB's generator for its original at reset, p_oos for a new id (with a stock
 * change), so both counts only grow. A change that rewrites an existing override must keep a
 * counter of its own here: the kept goal summaries (envs/shared/summary-cache.ts) rely on this.
 */
export function stockVersion(world: WorldState): number {
  return world.stockChanges.length + world.stockOverrides.size;
}

export function productStock(world: WorldState, product: Product): number {
  return world.stockOverrides.get(product.id) ?? product.stockQty;
}

export function variantStock(world: WorldState, variant: Variant): number {
  return world.stockOverrides.get(variant.variant_id) ?? variant.stock_qty;
}

/** Variants with the episode's stock applied. */
export function currentVariants(world: WorldState, product: Product): Variant[] {
  // Object.assign: `{ ...v, field }` is a slow path in V8 (issue 13)
  return variantsOf(product).map((v) => Object.assign({}, v, { stock_qty: variantStock(world, v) }));
}

/** Current stock of a product or variant id (0 when unknown): p_oos reads it before a change. */
export function stockOfId(world: WorldState, catalog: Catalog, id: string): number {
  const override = world.stockOverrides.get(id);
  if (override !== undefined) return override;
  const product = catalog.get(id) ?? catalog.get(id.split('_v_')[0]);
  if (!product) return 0;
  if (product.id === id) return product.stockQty;
  return findVariant(product, id)?.stock_qty ?? 0;
}

/** Stock of what a cart line would hold; undefined when the ids are unknown. */
export function stockFor(
  world: WorldState,
  catalog: Catalog,
  productId: string,
  variantId: string | null,
): number | undefined {
  const product = catalog.get(productId);
  if (!product) return undefined;
  if (!variantId) return productStock(world, product);
  const variant = findVariant(product, variantId);
  return variant ? variantStock(world, variant) : undefined;
}

export function unitPrice(catalog: Catalog, productId: string, variantId: string | null): number {
  const product = catalog.get(productId);
  if (!product) return 0;
  const delta = variantId ? (findVariant(product, variantId)?.price_delta ?? 0) : 0;
  return Math.round((product.price + delta) * 100) / 100;
}
