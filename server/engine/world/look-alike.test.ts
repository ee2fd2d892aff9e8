// pickLookAlike against the filters STATUS used before it (round 9): the same look-alike, and
// the same draws, for products of every category, with and without the catalog's indexOf.

import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Catalog, Product } from '../catalog/types';
import { Rng } from '../random';
import { pickLookAlike } from './look-alike';

/** STATUS's look-alike pick as it was: filter the others, then those of the same brand, rng.pick. */
function pickByFilter(catalog: Catalog, indices: readonly number[], product: Product, rng: Rng): number | null {
  const self = catalog.indexOf?.(product.id);
  const kin =
    self === undefined ? indices.filter((i) => catalog.at(i).id !== product.id) : indices.filter((i) => i !== self);
  const sameBrand = kin.filter((i) => catalog.at(i).brand === product.brand);
  return sameBrand.length > 0 ? rng.pick(sameBrand) : kin.length > 0 ? rng.pick(kin) : null;
}

const catalog = createSyntheticCatalog({ seed: 5, size: 20_000 });
/** The same products without indexOf (an imported catalog's kind): the product is found by id. */
const withoutIndexOf: Catalog = {
  id: catalog.id,
  size: catalog.size,
  get: (id) => catalog.get(id),
  at: (i) => catalog.at(i),
  search: (req) => catalog.search(req),
  categories: () => catalog.categories(),
  indicesInCategory: (c) => catalog.indicesInCategory(c),
};

describe('pickLookAlike', () => {
  it('picks what the filters picked, with the same draws, over every category', () => {
    let picks = 0;
    let sameBrand = 0;
    for (const category of catalog.categories()) {
      const indices = catalog.indicesInCategory(category);
      for (let s = 0; s < 6; s++) {
        const rng = Rng.from('look-alike', category, s);
        const product = catalog.at(indices[Math.floor(rng.next() * indices.length)]);
        for (const source of [catalog, withoutIndexOf]) {
          const a = Rng.from('pick', category, s);
          const b = Rng.from('pick', category, s);
          const got = pickLookAlike(source, indices, product, a);
          expect(got).toBe(pickByFilter(source, indices, product, b));
          expect(a.next()).toBe(b.next());
          if (got !== null) picks++;
          if (got !== null && catalog.at(got).brand === product.brand) sameBrand++;
        }
      }
    }
    expect(picks).toBeGreaterThan(500);
    expect(sameBrand).toBeGreaterThan(100);
    expect(sameBrand).toBeLessThan(picks); // both branches ran
  });

  it('handles lists without the product, of one product, and empty ones as the filters did', () => {
    const indices = catalog.indicesInCategory(catalog.categories()[0]);
    const product = catalog.at(indices[3]);
    const stranger = catalog.at(catalog.indicesInCategory(catalog.categories()[1])[0]);
    const cases: Array<[readonly number[], Product]> = [
      [[indices[3]], product],
      [[], product],
      [indices.slice(0, 40), stranger],
      [indices.slice(0, 40), product],
      [indices.slice(3, 4).concat(indices.slice(10, 12)), product],
    ];
    for (const [list, p] of cases) {
      for (let s = 0; s < 20; s++) {
        const a = Rng.from('edge', s);
        const b = Rng.from('edge', s);
        expect(pickLookAlike(catalog, list, p, a)).toBe(pickByFilter(catalog, list, p, b));
        expect(a.next()).toBe(b.next());
      }
    }
    expect(pickLookAlike(catalog, [indices[3]], product, new Rng(1))).toBeNull();
  });
});
