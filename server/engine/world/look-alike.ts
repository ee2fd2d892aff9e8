// STATUS's look-alike: another product of the named product's category, same brand preferred,
// picked with one draw. At 2M products a category holds ~29k products, and filtering it twice
// per reset (the others, then the same brand) was a third of a STATUS reset (issue 13). The
// category's positions are grouped by brand once per category list; a pick is then an index
// into the group or the list, skipping the product itself: the same item as rng.pick over the
// filtered lists, with the same draw (look-alike.test.ts compares both).

import type { Rng } from '../random';
import type { Catalog, Product } from '../catalog/types';
import { fieldReader } from './catalog-columns';

/** Per category list (catalogs keep theirs), its positions grouped by brand, each group ascending. */
const BRAND_GROUPS = new WeakMap<readonly number[], Map<string, number[]>>();

function brandGroups(catalog: Catalog, indices: readonly number[]): Map<string, number[]> {
  let groups = BRAND_GROUPS.get(indices);
  if (!groups) {
    groups = new Map();
    const fields = fieldReader(catalog);
    for (let p = 0; p < indices.length; p++) {
      const brand = fields.brand(indices[p]);
      const group = groups.get(brand);
      if (group) group.push(p);
      else groups.set(brand, [p]);
    }
    BRAND_GROUPS.set(indices, groups);
  }
  return groups;
}

/** Where the product sits in its category list (−1: not there). Lists are ascending in catalogs that keep columns. */
function positionOf(catalog: Catalog, indices: readonly number[], product: Product): number {
  const self = catalog.indexOf?.(product.id);
  if (self === undefined) return indices.findIndex((i) => catalog.at(i).id === product.id);
  let lo = 0;
  let hi = indices.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (indices[mid] < self) lo = mid + 1;
    else hi = mid - 1;
  }
  return indices[lo] === self ? lo : indices.indexOf(self);
}

/**
 * The catalog index of a look-alike of `product` among `indices` (its category's products):
 * rng.pick over the others of the same brand, or over all the others when none shares it.
 */
export function pickLookAlike(catalog: Catalog, indices: readonly number[], product: Product, rng: Rng): number | null {
  const selfAt = positionOf(catalog, indices, product);
  const group = brandGroups(catalog, indices).get(product.brand) ?? [];
  const selfInGroup = selfAt >= 0 && fieldReader(catalog).brand(indices[selfAt]) === product.brand;
  const sameBrand = group.length - (selfInGroup ? 1 : 0);
  if (sameBrand > 0) {
    const r = Math.floor(rng.next() * sameBrand);
    return indices[selfInGroup && group[r] >= selfAt ? group[r + 1] : group[r]];
  }
  const others = indices.length - (selfAt >= 0 ? 1 : 0);
  if (others === 0) return null;
  const r = Math.floor(rng.next() * others);
  return indices[selfAt >= 0 && r >= selfAt ? r + 1 : r];
}
