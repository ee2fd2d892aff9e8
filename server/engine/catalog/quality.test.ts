// Retrieval quality with retrieval noise off (issue targets).
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './synthetic';
import { Rng } from '../random';

const N = 20_000;
const cat = createSyntheticCatalog({ seed: 1, size: N });

describe('retrieval quality', () => {
  it('finds a product in the top 10 from its title in ≥ 95% of 1,000 samples', () => {
    const rng = new Rng(2024);
    let found = 0;
    for (let s = 0; s < 1000; s++) {
      const p = cat.at(rng.int(0, N - 1));
      const hits = cat.search({ query: p.title, topK: 10 });
      if (hits.some((h) => h.productId === p.id)) found++;
    }
    expect(found / 1000).toBeGreaterThanOrEqual(0.95);
  });

  it('returns only that brand and noun in the top 10 for "brand + noun" whenever ≥ 10 exist', () => {
    const byKey = new Map<string, number>();
    const products = Array.from({ length: N }, (_, i) => cat.at(i));
    for (const p of products) {
      const key = `${p.brand}|${p.noun}`;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    const rng = new Rng(7);
    let checked = 0;
    for (let s = 0; s < 1000; s++) {
      const p = products[rng.int(0, N - 1)];
      const count = byKey.get(`${p.brand}|${p.noun}`)!;
      if (count < 10) continue;
      checked++;
      const hits = cat.search({ query: `${p.brand} ${p.noun}`, topK: 10 });
      expect(hits.length).toBe(10);
      for (const h of hits) {
        const q = cat.get(h.productId)!;
        expect(`${q.brand}|${q.noun}`, `query "${p.brand} ${p.noun}"`).toBe(`${p.brand}|${p.noun}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('finds a product from its title at 200k too (ties among identical titles aside)', () => {
    const big = createSyntheticCatalog({ seed: 1, size: 200_000 });
    const rng = new Rng(99);
    let found = 0;
    for (let s = 0; s < 300; s++) {
      const p = big.at(rng.int(0, big.size - 1));
      if (big.search({ query: p.title, topK: 10 }).some((h) => h.productId === p.id)) found++;
    }
    expect(found / 300).toBeGreaterThanOrEqual(0.95);
  });
});
