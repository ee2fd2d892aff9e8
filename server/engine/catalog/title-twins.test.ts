import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { createSyntheticCatalog } from './synthetic';
import { hasTitleTwin } from './title-twins';
import type { Catalog } from './types';

describe('hasTitleTwin', () => {
  const catalog = createSyntheticCatalog({ seed: 1, size: 100_000 }); // the smallest size with a few twins (model codes make most titles unique)
  const counts = new Map<string, number>();
  for (let i = 0; i < catalog.size; i++) {
    const t = catalog.titleAt(i).toLowerCase();
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }

  it('agrees with a brute-force count of every title, for products with and without twins', () => {
    const rng = new Rng(5);
    const twins = [...Array(catalog.size).keys()].filter((i) => counts.get(catalog.titleAt(i).toLowerCase())! > 1);
    expect(twins.length).toBeGreaterThan(0);
    const sample = [...twins, ...Array.from({ length: 2000 }, () => rng.int(0, catalog.size - 1))];
    let withTwin = 0;
    for (const i of sample) {
      const p = catalog.at(i);
      const expected = counts.get(p.title.toLowerCase())! > 1;
      expect(hasTitleTwin(catalog, p), `${p.id} "${p.title}"`).toBe(expected);
      if (expected) withTwin++;
    }
    expect(withTwin).toBeGreaterThanOrEqual(twins.length);
    expect(withTwin).toBeLessThan(sample.length);
  });

  it('gives the same answers through the search fallback of a plain Catalog', () => {
    const plain: Catalog = {
      id: 'plain',
      size: catalog.size,
      get: (id) => catalog.get(id),
      at: (i) => catalog.at(i),
      search: (r) => catalog.search(r),
      categories: () => catalog.categories(),
      indicesInCategory: (c) => catalog.indicesInCategory(c),
    };
    const rng = new Rng(6);
    for (let n = 0; n < 300; n++) {
      const p = catalog.at(rng.int(0, catalog.size - 1));
      expect(hasTitleTwin(plain, p)).toBe(hasTitleTwin(catalog, p));
    }
  });
});
