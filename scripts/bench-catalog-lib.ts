// Query set, timing and the MiniSearch comparison used by bench-catalog.ts.

import MiniSearch from 'minisearch';
import type { ColumnarCatalog } from '../server/engine/catalog/columnar-catalog';
import { compileFilter } from '../server/engine/catalog/filters';
import { buildIndexFromTexts, type StoredTexts } from '../server/engine/catalog/from-products';
import type { Product, SearchFilters } from '../server/engine/catalog/types';
import { Rng } from '../server/engine/random';

export interface BenchQuery {
  query: string;
  filters?: SearchFilters;
  topK: number;
}

const MB = 1024 * 1024;

function typo(word: string, rng: Rng): string {
  if (word.length < 5) return word;
  const i = rng.int(1, word.length - 3);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

function firstAttr(p: Product, rng: Rng): string {
  const vals = Object.values(p.attrs).map(String);
  return vals.length ? rng.pick(vals) : '';
}

/**
 * A fixed, seeded set of agent-like queries: full titles, brand + noun, noun +
 * attribute, attribute + category, and a noun with a typo; every other query
 * carries filters (a category plus one more constraint). top_k is 10 (the tool
 * default) for 60% of queries, 20 / 50 / 200 for the rest.
 */
export function benchQueries(catalog: ColumnarCatalog, n: number): BenchQuery[] {
  const rng = new Rng(2024);
  const out: BenchQuery[] = [];
  for (let i = 0; i < n; i++) {
    const p = catalog.at(rng.int(0, catalog.size - 1));
    const noun = p.noun ?? p.category.split('/')[1].replace(/_/g, ' ');
    const leaf = p.category.split('/')[1].replace(/_/g, ' ');
    let query: string;
    switch (i % 5) {
      case 0:
        query = p.title;
        break;
      case 1:
        query = `${p.brand} ${noun}`;
        break;
      case 2:
        query = `${noun} ${firstAttr(p, rng)}`.trim();
        break;
      case 3:
        query = `${firstAttr(p, rng)} ${leaf}`.trim();
        break;
      default:
        query = `${noun
          .split(' ')
          .map((w) => typo(w.toLowerCase(), rng))
          .join(' ')} ${firstAttr(p, rng)}`.trim();
    }
    let filters: SearchFilters | undefined;
    if (i % 2 === 1) {
      filters = { category: rng.bernoulli(0.7) ? p.category : p.department };
      const extra = rng.int(0, 4);
      if (extra === 0) filters.price_max = Math.round(p.price * 1.2);
      else if (extra === 1) filters.rating_min = 4;
      else if (extra === 2 && typeof p.attrs.color === 'string') filters.color = p.attrs.color;
      else if (extra === 3) filters.ship_days_max = 5;
      else filters.in_stock = true;
    }
    const u = rng.next();
    const topK = u < 0.6 ? 10 : u < 0.8 ? 20 : u < 0.9 ? 50 : 200;
    out.push({ query, filters, topK });
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/**
 * One warm-up pass (JIT, lazy caches), then three measured passes; p50 and p99
 * are the medians over the passes (the machine is shared, one pass is noisy).
 */
export function timeQueries(catalog: ColumnarCatalog, queries: BenchQuery[], passes = 3): { p50: number; p99: number } {
  for (const q of queries) catalog.search(q);
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const lat: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      catalog.search(q);
      lat.push(performance.now() - t);
    }
    lat.sort((a, b) => a - b);
    p50s.push(percentile(lat, 0.5));
    p99s.push(percentile(lat, 0.99));
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
  return { p50: median(p50s), p99: median(p99s) };
}

/** Full product titles as queries (top 10, no filters): what an agent pastes after reading a product. */
export function titleQueries(catalog: ColumnarCatalog, n: number): BenchQuery[] {
  const rng = new Rng(4242);
  return Array.from({ length: n }, () => ({ query: catalog.at(rng.int(0, catalog.size - 1)).title, topK: 10 }));
}

/** Share of sampled products found in the top 10 by their own title. */
export function titleRecall(catalog: ColumnarCatalog, n: number): number {
  const rng = new Rng(99);
  let hit = 0;
  for (let s = 0; s < n; s++) {
    const p = catalog.at(rng.int(0, catalog.size - 1));
    if (catalog.search({ query: p.title, topK: 10 }).some((h) => h.productId === p.id)) hit++;
  }
  return hit / n;
}

const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / MB;
};

interface Doc {
  i: number;
  title: string;
  brand: string;
  category: string;
  attrs: string;
}

function docsOf(catalog: ColumnarCatalog): Doc[] {
  const docs: Doc[] = [];
  for (let i = 0; i < catalog.size; i++) {
    const p = catalog.at(i);
    docs.push({
      i,
      title: p.title,
      brand: p.brand,
      category: p.category.replace(/[/_]/g, ' '),
      attrs: Object.values(p.attrs).join(' '),
    });
  }
  return docs;
}

/** MiniSearch on the same products and queries (same fields, title boosted ×2, OR semantics, no fuzzy). */
export function runMiniSearch(catalog: ColumnarCatalog, queries: BenchQuery[]) {
  // our generic path (tokenizing the texts, as for an imported catalog), for a like-for-like build time
  const docs: Doc[] = docsOf(catalog);
  const texts: StoredTexts = { ids: [], titles: docs.map((d) => d.title), descriptions: [], features: [], nouns: [] };
  let t = performance.now();
  const ourIndex = buildIndexFromTexts(catalog.cols, texts);
  const ourBuildS = (performance.now() - t) / 1000;
  const d = ourIndex;
  const ourMemMB = (d.docs.byteLength + d.impacts.byteLength + d.offsets.byteLength + d.maxImpact.byteLength) / MB;

  const before = heap();
  t = performance.now();
  const mini = new MiniSearch<Doc>({
    idField: 'i',
    fields: ['title', 'brand', 'category', 'attrs'],
    storeFields: [],
    searchOptions: { boost: { title: 2 }, combineWith: 'OR' },
  });
  mini.addAll(docs);
  const buildS = (performance.now() - t) / 1000;
  docs.length = 0; // drop the source documents so the heap figure counts the index only
  const memMB = heap() - before;

  const run = (q: BenchQuery) => {
    const accept = compileFilter(q.filters, catalog.cols).accept;
    const res = mini.search(q.query, accept ? { filter: (r) => accept(r.id as number) } : undefined);
    return res.slice(0, q.topK);
  };
  for (const q of queries) run(q);
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const lat: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      run(q);
      lat.push(performance.now() - s);
    }
    lat.sort((a, b) => a - b);
    p50s.push(percentile(lat, 0.5));
    p99s.push(percentile(lat, 0.99));
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
  return { buildS, memMB, p50: median(p50s), p99: median(p99s), ours: { buildS: ourBuildS, memMB: ourMemMB } };
}
