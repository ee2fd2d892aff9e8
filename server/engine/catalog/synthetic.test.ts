import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog, generateSyntheticColumns, productSeed } from './synthetic';
import { createCatalogFromProducts } from './from-products';
import { VARIANT_PRIORITY, isDeniedCategory } from './taxonomy';
import { Rng } from '../random';
import { tokenize } from './tokenize';

const N = 20_000;
const cat = createSyntheticCatalog({ seed: 1, size: N });
const all = Array.from({ length: N }, (_, i) => cat.at(i));

describe('synthetic catalog generator', () => {
  it('is deterministic: same seed and size give the same products', () => {
    const again = createSyntheticCatalog({ seed: 1, size: N });
    for (let i = 0; i < N; i += 7) expect(again.at(i)).toEqual(all[i]);
    expect(again.id).toBe('synthetic-s1-n20000');
  });

  it('makes product i depend only on (seed, i): a smaller catalog is a prefix', () => {
    const small = createSyntheticCatalog({ seed: 1, size: 500 });
    for (let i = 0; i < 500; i++) expect(small.at(i)).toEqual(all[i]);
  });

  it('gives different products for different seeds', () => {
    for (const seed of [2, 3, 99]) {
      const other = createSyntheticCatalog({ seed, size: 200 });
      let same = 0;
      for (let i = 0; i < 200; i++) if (other.at(i).title === all[i].title) same++;
      expect(same).toBeLessThan(10);
    }
  });

  it('mixes seeds well (no two products of 200k share a seed by construction)', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200_000; i++) seen.add(productSeed(1, i));
    expect(seen.size).toBeGreaterThan(199_990);
  });

  it('produces well-formed products', () => {
    for (const [i, p] of all.entries()) {
      expect(p.id).toBe(`syn_${String(i).padStart(7, '0')}`);
      expect(cat.get(p.id)).toEqual(p);
      expect(p.title.startsWith(`${p.brand} `)).toBe(true);
      expect(p.category.startsWith(`${p.department}/`)).toBe(true);
      expect(p.rating).toBeGreaterThanOrEqual(1);
      expect(p.rating).toBeLessThanOrEqual(5);
      expect(Math.round(p.rating * 10) / 10).toBe(p.rating);
      expect(p.shipDays).toBeGreaterThanOrEqual(1);
      expect(p.shipDays).toBeLessThanOrEqual(14);
      expect(p.price).toBeGreaterThan(0);
      expect(p.stockQty).toBeGreaterThanOrEqual(0);
      expect(p.features.length).toBeGreaterThan(0);
      expect(p.description.length).toBeGreaterThan(20);
      expect(p.noun && p.title.includes(p.noun)).toBeTruthy();
    }
    expect(cat.get('syn_9999999')).toBeUndefined();
    expect(cat.get('nope')).toBeUndefined();
    expect(() => cat.at(N)).toThrow(RangeError);
  });

  it('has the distributions of SPEC §3', () => {
    const prices = all.map((p) => p.price).sort((a, b) => a - b);
    const median = prices[N >> 1];
    expect(median).toBeGreaterThan(14);
    expect(median).toBeLessThan(28);
    const oos = all.filter((p) => p.stockQty === 0).length / N;
    expect(oos).toBeGreaterThan(0.085);
    expect(oos).toBeLessThan(0.115);
    const denied = all.filter((p) => isDeniedCategory(p.category)).length / N;
    expect(denied).toBeGreaterThan(0.003);
    expect(denied).toBeLessThan(0.008);
    // rating 1 + 4·Beta(5,2): mean 1 + 4·5/7 ≈ 3.86
    const meanRating = all.reduce((s, p) => s + p.rating, 0) / N;
    expect(meanRating).toBeGreaterThan(3.76);
    expect(meanRating).toBeLessThan(3.96);
    // ship_days geometric(0.4): P(1) = 0.4
    const oneDay = all.filter((p) => p.shipDays === 1).length / N;
    expect(oneDay).toBeGreaterThan(0.37);
    expect(oneDay).toBeLessThan(0.43);
    expect(new Set(all.map((p) => p.category)).size).toBeGreaterThanOrEqual(50);
  });

  it('lets CART vary at least 60% of the products of departments with a variant priority', () => {
    let eligible = 0;
    let total = 0;
    for (const p of all) {
      const prio = VARIANT_PRIORITY[p.department];
      if (!prio) continue;
      total++;
      if (prio.some((a) => p.attrs[a] !== undefined && p.attrs[a] !== '')) eligible++;
    }
    expect(eligible / total).toBeGreaterThanOrEqual(0.6);
  });

  it('indexes exactly like the generic path built from the materialised products', () => {
    const products = all.slice(0, 3000);
    const small = createSyntheticCatalog({ seed: 1, size: 3000 });
    const generic = createCatalogFromProducts('generic', products);
    const rng = new Rng(5);
    for (let q = 0; q < 200; q++) {
      const p = products[rng.int(0, products.length - 1)];
      const words = p.title.split(' ');
      const query = rng.sample(words, rng.int(1, words.length)).join(' ');
      const a = small.search({ query, topK: 20 });
      const b = generic.search({ query, topK: 20 });
      expect(b).toEqual(a);
    }
  });

  it('rejects sizes outside the supported range', () => {
    expect(() => generateSyntheticColumns({ seed: 1, size: -1 })).toThrow(RangeError);
    expect(() => generateSyntheticColumns({ seed: 1, size: 1.5 })).toThrow(RangeError);
    expect(createSyntheticCatalog({ seed: 1, size: 0 }).search({ query: 'charger', topK: 5 })).toEqual([]);
  });
});

describe('synthetic title tokens', () => {
  it('equal the tokenizer on the generated title, for every product of a 20k catalog', () => {
    const catalog = createSyntheticCatalog({ seed: 3, size: 20_000 });
    for (let i = 0; i < catalog.size; i++) expect(catalog.titleTokensAt(i)).toEqual(tokenize(catalog.titleAt(i)));
  });

  it('come from numbered parts: within the count, one cached token list per number, the same number for the same text', () => {
    const catalog = createSyntheticCatalog({ seed: 3, size: 5_000 });
    const parts = catalog.text.titleParts!;
    const out = new Int32Array(64);
    const textOf = new Map<number, string>();
    const wrong: string[] = [];
    for (let i = 0; i < catalog.size; i++) {
      const n = parts.of(i, out);
      if (n < 4) wrong.push(`${i}: ${n} parts`); // brand, adjective, noun, model code, then specs
      for (let k = 0; k < n; k++) {
        const p = out[k];
        if (p < 0 || p >= parts.count) wrong.push(`${i}: part ${p} of ${parts.count}`);
        if (parts.tokens(p) !== parts.tokens(p)) wrong.push(`part ${p}: a new token list per call`);
        const joined = parts.tokens(p).join(' ');
        if ((textOf.get(p) ?? joined) !== joined) wrong.push(`part ${p}: ${textOf.get(p)} and ${joined}`);
        textOf.set(p, joined);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(textOf.size).toBeGreaterThan(1000);
  });
});
