import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './synthetic';
import { createCatalogFromProducts } from './from-products';
import { BM25_B, BM25_K1 } from './search-index';
import { editDistance } from './fuzzy';
import { stem, tokenize } from './tokenize';
import type { Product, SearchFilters } from './types';
import { Rng } from '../random';
import { ATTRIBUTE_NAMES, attributeValues } from './taxonomy';
import { maxScoreTopK } from './maxscore';
import { manyTermTopK } from './many-terms';
import { compileFilter } from './filters';

const N = 12_000;
const cat = createSyntheticCatalog({ seed: 7, size: N });
const all: Product[] = Array.from({ length: N }, (_, i) => cat.at(i));

/** Independent reading of the filter semantics documented in filters.ts. */
function matches(p: Product, f: SearchFilters): boolean {
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined) continue;
    const s = String(v).toLowerCase();
    switch (k) {
      case 'category': {
        const c = p.category.toLowerCase();
        if (!(c === s || c.startsWith(s + '/'))) return false;
        break;
      }
      case 'brand':
        if (p.brand.toLowerCase() !== s) return false;
        break;
      case 'store':
        if (p.store.toLowerCase() !== s) return false;
        break;
      case 'price_min':
        if (!(p.price >= (v as number))) return false;
        break;
      case 'price_max':
        if (!(p.price <= (v as number))) return false;
        break;
      case 'rating_min':
        if (!(p.rating >= (v as number))) return false;
        break;
      case 'ship_days_max':
        if (!(p.shipDays <= (v as number))) return false;
        break;
      case 'in_stock':
        if (p.stockQty > 0 !== v) return false;
        break;
      default: {
        const m = /^(.*)_(min|max)$/.exec(k);
        if (p.attrs[k] !== undefined || !m) {
          if (p.attrs[k] === undefined || String(p.attrs[k]).toLowerCase() !== s) return false;
        } else {
          const x = p.attrs[m[1]];
          if (typeof x !== 'number') return false;
          if (m[2] === 'min' ? !(x >= (v as number)) : !(x <= (v as number))) return false;
        }
      }
    }
  }
  return true;
}

function randomFilters(rng: Rng): SearchFilters {
  const f: Record<string, unknown> = {};
  const p = all[rng.int(0, N - 1)]; // anchor on a real product so combos are often non-empty
  const keys = rng.sample(
    [
      'category',
      'dept',
      'brand',
      'store',
      'color',
      'size',
      'material',
      'connector_type',
      'item_form',
      'skin_type',
      'price_min',
      'price_max',
      'rating_min',
      'ship_days_max',
      'wattage_min',
      'wattage_max',
      'in_stock',
      'odd',
    ],
    rng.int(1, 4),
  );
  const caseMix = (s: string) => (rng.bernoulli(0.3) ? s.toUpperCase() : rng.bernoulli(0.5) ? s.toLowerCase() : s);
  for (const k of keys) {
    switch (k) {
      case 'category':
        f.category = caseMix(rng.bernoulli(0.9) ? p.category : 'electronics/unicorns');
        break;
      case 'dept':
        f.category = caseMix(rng.bernoulli(0.9) ? p.department : 'elec');
        break;
      case 'brand':
        f.brand = caseMix(rng.bernoulli(0.9) ? p.brand : 'NoSuchBrand');
        break;
      case 'store':
        f.store = caseMix(p.store);
        break;
      case 'price_min':
        f.price_min = rng.bernoulli(0.3) ? p.price : Math.round(rng.uniform(0, 100) * 100) / 100;
        break;
      case 'price_max':
        f.price_max = rng.bernoulli(0.3) ? p.price : Math.round(rng.uniform(5, 300) * 100) / 100;
        break;
      case 'rating_min':
        f.rating_min = rng.bernoulli(0.3) ? p.rating : Math.round(rng.uniform(1, 5) * 10) / 10;
        break;
      case 'ship_days_max':
        f.ship_days_max = rng.int(1, 6);
        break;
      case 'wattage_min':
        f.wattage_min = rng.pick([0, 20, 45, 65, 100, 600]);
        break;
      case 'wattage_max':
        f.wattage_max = rng.pick([10, 30, 65, 140, 1500]);
        break;
      case 'in_stock':
        f.in_stock = rng.bernoulli(0.8);
        break;
      case 'odd':
        f.colour = 'black';
        break; // unknown attribute → nothing
      default: {
        const own = p.attrs[k];
        f[k] = caseMix(own !== undefined && rng.bernoulli(0.8) ? String(own) : rng.pick(attributeValues(k)));
      }
    }
  }
  return f as SearchFilters;
}

/** Exhaustive BM25 over the index postings (no pruning): the reference for MaxScore. */
function exhaustive(query: string, filter: (p: Product) => boolean, k: number) {
  const data = cat.index.data;
  const q = new Map<number, number>();
  for (const t of tokenize(query)) {
    const id = cat.index.termId(t);
    if (id >= 0) q.set(id, (q.get(id) ?? 0) + 1);
  }
  const score = new Map<number, number>();
  for (const [t, qtf] of q) {
    for (let j = data.offsets[t]; j < data.offsets[t + 1]; j++) {
      const d = data.docs[j];
      score.set(d, (score.get(d) ?? 0) + data.impacts[j] * qtf);
    }
  }
  return [...score.entries()]
    .filter(([d]) => filter(all[d]))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([d, s]) => ({ productId: all[d].id, score: s }));
}

describe('tokenizer', () => {
  it('splits, lowercases, stems plurals and joins hyphenated words', () => {
    expect(tokenize('USB-C Chargers, 65W!')).toEqual(['usb', 'c', 'usbc', 'charger', '65w', '65']);
    expect(tokenize('the T-Shirt for men')).toEqual(['t', 'shirt', 'tshirt', 'men']);
    expect(tokenize('21.5-Inch 3.5mm')).toEqual(['21.5', 'inch', '21.5inch', '21.5', '3.5mm', '3.5']);
    expect(tokenize("Men's batteries boxes glasses")).toEqual(['men', 'battery', 'box', 'glass']);
    expect(stem('bus')).toBe('bus');
    expect(stem('series')).toBe('sery'); // light stemmer: consistent on both sides is what matters
  });

  it('measures edit distance with adjacent swaps as one edit', () => {
    expect(editDistance('charger', 'chagrer', 2)).toBe(1);
    expect(editDistance('charger', 'chrger', 2)).toBe(1);
    expect(editDistance('charger', 'blender', 2)).toBe(3);
  });
});

describe('BM25 scoring', () => {
  const base = {
    description: '',
    store: 's',
    features: [],
    price: 10,
    rating: 4,
    ratingCount: 1,
    shipDays: 2,
    stockQty: 5,
  };
  const tiny = createCatalogFromProducts('tiny', [
    { ...base, id: 'a', title: 'red kettle', category: 'home/kettles', department: 'home', brand: 'Acme', attrs: {} },
    { ...base, id: 'b', title: 'blue kettle', category: 'home/kettles', department: 'home', brand: 'Acme', attrs: {} },
    {
      ...base,
      id: 'c',
      title: 'red mug',
      category: 'home/mugs',
      department: 'home',
      brand: 'Zed',
      attrs: { color: 'Red' },
    },
  ]);

  it('matches a hand computation', () => {
    // doc lengths (title 2, brand 1, category 1, attrs 1): a = 2·2+1+2 = 7, b = 7, c = 2·2+1+2+1 = 8; avg 22/3
    // "kettle": df 2 → idf = ln(1 + (3-2+0.5)/(2+0.5)) ; a has tf = 2 (title) + 1 (category "kettles") = 3
    const idf = Math.log(1 + 1.5 / 2.5);
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * 7) / (22 / 3));
    const expected = (idf * 3 * (BM25_K1 + 1)) / (3 + norm);
    const hits = tiny.search({ query: 'kettle', topK: 5 });
    expect(hits.map((h) => h.productId)).toEqual(['a', 'b']);
    expect(hits[0].score).toBeCloseTo(expected, 3);
    expect(hits[1].score).toBe(hits[0].score); // same score → lower index first
  });

  it('ranks the doc matching more query terms first', () => {
    // b and c each match one term with tf 3 and equal idf; c is longer (its color attr) so scores lower
    expect(tiny.search({ query: 'red kettle', topK: 3 }).map((h) => h.productId)).toEqual(['a', 'b', 'c']);
    expect(tiny.search({ query: 'zed', topK: 3 }).map((h) => h.productId)).toEqual(['c']);
    expect(tiny.search({ query: 'nothing here', topK: 3 })).toEqual([]);
  });
});

describe('catalog.search', () => {
  it('returns the exact BM25 top-k (MaxScore never prunes a true hit)', () => {
    const rng = new Rng(11);
    for (let q = 0; q < 300; q++) {
      const p = all[rng.int(0, N - 1)];
      const pool = [...tokenize(p.title), ...tokenize(p.category), p.brand.toLowerCase(), 'black', 'usb-c', 'large'];
      const query = rng.sample(pool, rng.int(1, 6)).join(' ');
      const k = rng.pick([1, 5, 10, 20, 50, 200]);
      const filters = rng.bernoulli(0.4) ? randomFilters(rng) : undefined;
      const got = cat.search({ query, filters, topK: k });
      const want = exhaustive(query, (x) => !filters || matches(x, filters), k);
      expect(got, `${query} ${JSON.stringify(filters)} k=${k}`).toEqual(want);
    }
  });

  it('returns the exact top-k for full titles and titles without their model code, with and without filters', () => {
    const rng = new Rng(12);
    for (let q = 0; q < 300; q++) {
      const p = all[rng.int(0, N - 1)];
      const k = rng.pick([1, 5, 10, 20, 50]);
      const filters = rng.bernoulli(0.3)
        ? rng.bernoulli(0.5)
          ? { category: p.category }
          : randomFilters(rng)
        : undefined;
      // half without the model code: many near-ties, the hard case for pruning
      const query = rng.bernoulli(0.5) ? p.title : p.title.replace(/ [A-Z]\d{3}\b/, '');
      const got = cat.search({ query, filters, topK: k });
      const want = exhaustive(query, (x) => !filters || matches(x, filters), k);
      expect(got, `${query} ${JSON.stringify(filters)} k=${k}`).toEqual(want);
    }
  });

  it('applies filters exactly (property test against a brute-force scan)', () => {
    const rng = new Rng(3);
    let nonEmpty = 0;
    for (let t = 0; t < 400; t++) {
      const filters = randomFilters(rng);
      const expected = all.filter((p) => matches(p, filters)).map((p) => p.id);
      const got = cat.search({ query: '', filters, topK: N }).map((h) => h.productId);
      expect(got, JSON.stringify(filters)).toEqual(expected);
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(150); // the property is not vacuous
  });

  it('caps results at topK and breaks ties by product index', () => {
    for (const k of [0, 1, 3, 17]) expect(cat.search({ query: 'black', topK: k }).length).toBe(k);
    const hits = cat.search({ query: 'charger', topK: 200 });
    for (let i = 1; i < hits.length; i++) {
      const a = hits[i - 1];
      const b = hits[i];
      expect(a.score > b.score || (a.score === b.score && a.productId < b.productId)).toBe(true);
    }
  });

  it('is deterministic and case-insensitive', () => {
    const a = cat.search({ query: 'Wall CHARGER usb-c', filters: { color: 'BLACK' }, topK: 30 });
    const b = cat.search({ query: 'wall charger USB-C', filters: { color: 'black' }, topK: 30 });
    expect(a).toEqual(b);
    expect(a.length).toBe(30);
  });

  it('tolerates typos in the query', () => {
    const right = cat.search({ query: 'blender', topK: 10 });
    expect(cat.search({ query: 'blendr', topK: 10 })).toEqual(right);
    expect(cat.search({ query: 'bledner', topK: 10 })).toEqual(right);
  });

  it('searches every attribute value the catalog has', () => {
    for (const a of ATTRIBUTE_NAMES.filter((x) => ['color', 'connector_type', 'item_form', 'material'].includes(x))) {
      for (const v of attributeValues(a).slice(0, 5)) {
        const hits = cat.search({ query: v, filters: { [a]: v } as SearchFilters, topK: 5 });
        for (const h of hits) expect(String(cat.get(h.productId)!.attrs[a]).toLowerCase()).toBe(v.toLowerCase());
      }
    }
  });
});

/** Term id → count of a query's known words (as catalog.search builds it, without typo expansion). */
function queryOf(text: string): Map<number, number> {
  const q = new Map<number, number>();
  for (const t of tokenize(text)) {
    const id = cat.index.termId(t);
    if (id >= 0) q.set(id, (q.get(id) ?? 0) + 1);
  }
  return q;
}

// manyTermTopK (the many-term path in front of MaxScore) against plain MaxScore — the algorithm
// before it, checked against exhaustive BM25 above — on random full titles.
describe('many-term queries (full titles)', () => {
  it('give exactly the top k of plain MaxScore, through both of their paths', () => {
    const rng = new Rng(31);
    const { data, bounds } = cat.index;
    const paths = { decided: 0, floorOnly: 0, none: 0 };
    for (let n = 0; n < 200; n++) {
      const p = cat.at(rng.int(0, N - 1));
      const k = rng.pick([1, 3, 10, 10, 20, 50]);
      // a whole title; without its model code (many ties at the k-th score); with one word dropped
      const words = p.title.split(' ');
      const text = rng.pick([
        p.title,
        p.title.replace(/ [A-Z]\d{3}\b/, ''),
        words.filter((_, i) => i !== rng.int(0, words.length - 1)).join(' '),
      ]);
      const filter = rng.bernoulli(0.25)
        ? compileFilter({ rating_min: 4, in_stock: true }, cat.cols).accept!
        : undefined;
      const query = queryOf(text);
      const want = maxScoreTopK(data, query, k, { bounds, accept: filter, manyTerms: false });
      const got = maxScoreTopK(data, query, k, { bounds, accept: filter });
      expect(got, `${text} k=${k} filtered=${!!filter}`).toEqual(want);
      expect(want.length).toBe(Math.min(k, want.length)); // sanity: never more than k
      const lists = [...query].map(([t, qtf]) => ({ t, qtf, ub: data.maxImpact[t] * qtf }));
      const many = manyTermTopK(data, lists, k, filter);
      if (many.hits) {
        paths.decided++;
        expect(many.hits).toEqual(want);
      } else if (many.floor > -Infinity) {
        paths.floorOnly++;
        // the floor lies under the k-th best score: MaxScore started there loses nothing
        expect(many.floor).toBeLessThan(want[k - 1].score);
      } else paths.none++;
    }
    // every path is exercised
    expect(paths.decided).toBeGreaterThan(40);
    expect(paths.floorOnly).toBeGreaterThan(0);
    expect(paths.none).toBeGreaterThan(0);
  });
});
