// evaluation-pool.ts: the pool kept as columns reads back as the entries it was built from (every
// float exact), finds ids as a Map of its ids would, and is stored (JSON) as the list of entries
// a goal held before the pool became columns.
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Episode } from '../../episode';
import { EvaluationPool, type PoolEntry } from './evaluation-pool';
import type { RecommendationSpec } from './recommend';

const entries: PoolEntry[] = [
  { id: 'a', s: 1, u: 0.1 + 0.2, sim: 1 / 3, rel: 0.30000000000000004, stock: 12 },
  { id: 'b', s: 0.5, u: 0.25, sim: 0, rel: 0.015625, stock: 0 },
  { id: 'c', s: 0, u: 2 ** -40, sim: 0.999999999999, rel: 0, stock: 65_535 },
];

describe('EvaluationPool', () => {
  it('reads back every entry exactly, and answers positions as a Map of its ids', () => {
    const pool = EvaluationPool.of(entries);
    expect(pool.length).toBe(3);
    expect(pool.entries()).toEqual(entries);
    for (const [j, e] of entries.entries()) {
      expect(Object.is(pool.rel(j), e.rel)).toBe(true);
      expect(pool.stock[j]).toBe(e.stock);
      expect(pool.positionOf(e.id)).toBe(j);
    }
    for (const id of ['', 'd', 'A', 'toString', '__proto__']) expect(pool.positionOf(id)).toBeUndefined();
  });

  it('is stored as the list of its entries, in the key order a goal always had', () => {
    expect(JSON.stringify({ pool: EvaluationPool.of(entries) })).toBe(JSON.stringify({ pool: entries }));
    expect(JSON.stringify(EvaluationPool.of([]))).toBe('[]');
  });

  it("a reset's pool: entries in relevance order, each found at its position, JSON as its entries", () => {
    const catalog = createSyntheticCatalog({ seed: 3, size: 5_000 });
    for (const envId of ['PD', 'SUB'] as const)
      for (let seed = 0; seed < 6; seed++) {
        const episode = new Episode({ envId, d: 4, seed }, catalog);
        episode.reset();
        const { pool } = (episode.hiddenGoal().data as { rec: RecommendationSpec }).rec;
        const list = pool.entries();
        expect(list.length).toBeGreaterThan(0);
        list.forEach((e, j) => {
          expect(pool.positionOf(e.id)).toBe(j);
          if (j > 0) expect(list[j - 1].rel).toBeGreaterThanOrEqual(e.rel);
        });
        expect(JSON.parse(JSON.stringify(pool))).toEqual(list);
      }
  });
});
