import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './synthetic';
import { maxScoreTopK } from './maxscore';
import { manyTermTopK } from './many-terms';
import { compileFilter } from './filters';
import { tokenize } from './tokenize';
import { Rng } from '../random';

// manyTermTopK (the many-term path in front of MaxScore) against plain MaxScore — the algorithm
// before it, itself checked against exhaustive BM25 in search.test.ts — on random full titles.
const N = 20_000;
const cat = createSyntheticCatalog({ seed: 5, size: N });
const { data, bounds } = cat.index;

function queryOf(text: string): Map<number, number> {
  const q = new Map<number, number>();
  for (const t of tokenize(text)) {
    const id = cat.index.termId(t);
    if (id >= 0) q.set(id, (q.get(id) ?? 0) + 1);
  }
  return q;
}

describe('many-term queries (full titles)', () => {
  it('give exactly the top k of plain MaxScore, through both of their paths', () => {
    const rng = new Rng(31);
    const paths = { decided: 0, floorOnly: 0, none: 0 };
    for (let n = 0; n < 400; n++) {
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
    expect(paths.decided).toBeGreaterThan(100);
    expect(paths.floorOnly).toBeGreaterThan(0);
    expect(paths.none).toBeGreaterThan(0);
  });
});
