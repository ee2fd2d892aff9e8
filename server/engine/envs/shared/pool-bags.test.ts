// The bag store's layout (pool-bags.ts): a large category's documents (its stride sample, every
// reset's candidates) have their bags side by side in candidate order, so a pool's cosines read one
// run of memory; every other product of the category has its bag too, after them. The floats do
// not depend on the layout (pool-equivalence.test.ts compares every pool with the product path).

import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { BagStore } from './pool-bags';

describe('bag store layout', () => {
  const catalog = createSyntheticCatalog({ seed: 4, size: 20_000 });
  const store = new BagStore(catalog, 120); // a scan limit of 120: most categories are large ones

  it('a large category stores its sample bags as one run in candidate order, then every other product', () => {
    let large = 0;
    for (const category of catalog.categories()) {
      const pool = store.pool(category)!;
      if (pool.whole) continue;
      large++;
      const sample = pool.sample!;
      expect(sample.index.length).toBe(120);
      for (let k = 1; k < sample.index.length; k++)
        expect(sample.bagAt[k], `${category} document ${k}`).toBe(sample.bagAt[k - 1] + sample.bagLen[k - 1]);
      const sampleEnd = sample.bagAt[119] + sample.bagLen[119];
      for (let r = 0; r < pool.all.length; r++) {
        expect(pool.rowBag![r], `${category} row ${r}`).toBeGreaterThanOrEqual(0);
        if (!pool.docMark![r]) expect(pool.rowBag![r]).toBeGreaterThanOrEqual(sampleEnd);
      }
    }
    expect(large).toBeGreaterThan(20);
  });
});
