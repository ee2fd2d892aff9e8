import { describe, expect, it } from 'vitest';
import { applyRetrievalNoise } from './noise';
import { createSyntheticCatalog } from './synthetic';
import { Rng } from '../random';
import type { Catalog } from './types';

const cat = createSyntheticCatalog({ seed: 3, size: 20_000 });
const queries = [
  'usb-c charger',
  'black t-shirt',
  'cast iron skillet',
  'yoga mat',
  'coffee',
  'office chair mesh',
  'tent',
  'blender 1200w',
];

describe('retrieval noise', () => {
  it('changes nothing at eps = 0', () => {
    const hits = cat.search({ query: 'wall charger', topK: 20 });
    expect(applyRetrievalNoise(hits, 0, new Rng(1), cat)).toEqual(hits);
  });

  it('replaces each rank with probability eps (rate within tolerance)', () => {
    for (const eps of [0.1, 0.2, 0.4]) {
      const rng = new Rng(42);
      let ranks = 0;
      let replaced = 0;
      for (let r = 0; r < 40; r++) {
        for (const q of queries) {
          const hits = cat.search({ query: q, topK: 20 });
          const noisy = applyRetrievalNoise(hits, eps, rng, cat);
          ranks += hits.length;
          noisy.forEach((h, i) => (replaced += h.productId !== hits[i].productId ? 1 : 0));
        }
      }
      // 6,400 Bernoulli draws: sd ≈ 0.006; allow 4 sd
      const sd = Math.sqrt((eps * (1 - eps)) / ranks);
      expect(Math.abs(replaced / ranks - eps)).toBeLessThan(4 * sd + 0.002);
    }
  });

  it('replaces with products of the same category, never duplicating, keeping the scores', () => {
    const rng = new Rng(9);
    for (const q of queries) {
      const hits = cat.search({ query: q, topK: 50 });
      const noisy = applyRetrievalNoise(hits, 1, rng, cat);
      expect(noisy.length).toBe(hits.length);
      expect(new Set(noisy.map((h) => h.productId)).size).toBe(noisy.length);
      noisy.forEach((h, i) => {
        expect(h.productId).not.toBe(hits[i].productId);
        expect(cat.get(h.productId)!.category).toBe(cat.get(hits[i].productId)!.category);
        expect(h.score).toBe(hits[i].score);
      });
    }
  });

  it('is deterministic for the same rng seed and leaves the input untouched', () => {
    const hits = cat.search({ query: 'hoodie', topK: 30 });
    const copy = structuredClone(hits);
    const a = applyRetrievalNoise(hits, 0.3, new Rng(5), cat);
    const b = applyRetrievalNoise(hits, 0.3, new Rng(5), cat);
    expect(a).toEqual(b);
    expect(hits).toEqual(copy);
  });

  it('works with any Catalog (no indexOf/categoryAt) and keeps a rank when its category has nothing else', () => {
    const plain: Catalog = {
      id: 'plain',
      size: cat.size,
      get: (id) => cat.get(id),
      at: (i) => cat.at(i),
      search: (r) => cat.search(r),
      categories: () => cat.categories(),
      indicesInCategory: (c) => cat.indicesInCategory(c),
    };
    const hits = cat.search({ query: 'jeans', topK: 10 });
    expect(applyRetrievalNoise(hits, 0.5, new Rng(7), plain)).toEqual(applyRetrievalNoise(hits, 0.5, new Rng(7), cat));
    const lonely = { ...plain, indicesInCategory: () => [cat.indexOf(hits[0].productId)] };
    expect(applyRetrievalNoise(hits.slice(0, 1), 1, new Rng(1), lonely)).toEqual(hits.slice(0, 1));
  });
});
