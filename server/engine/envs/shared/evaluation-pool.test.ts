// evaluation-pool.ts: the pool kept as columns reads back as the entries it was built from (every
// float exact) and finds ids as a Map of its ids would; a goal's `pool` stays the plain list of
// entries it was before the pool became columns (JSON, structured clones, readers).
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Episode } from '../../episode';
import { EvaluationPool, poolOf, type PoolEntry } from './evaluation-pool';
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

  it("a reset's pool: columns in relevance order, each entry found at its position", () => {
    for (const { rec } of goals()) {
      const pool = poolOf(rec);
      const list = pool.entries();
      expect(list.length).toBeGreaterThan(0);
      list.forEach((e, j) => {
        expect(pool.positionOf(e.id)).toBe(j);
        if (j > 0) expect(list[j - 1].rel).toBeGreaterThanOrEqual(e.rel);
      });
    }
  });

  it("a goal's pool is a plain list of entries to JSON, a structured clone (worker threads) and a reader", () => {
    for (const { rec } of goals()) {
      const entries = poolOf(rec).entries();
      expect(rec.pool).toEqual(entries);
      expect(JSON.parse(JSON.stringify(rec)).pool).toEqual(entries);
      const copy = structuredClone(rec); // threw while the pool's columns sat on the goal (positions hold a function)
      expect(copy.pool).toEqual(entries);
      expect(poolOf(copy).entries()).toEqual(entries); // a copy's columns, built from its entries
    }
  });
});

function goals(): { rec: RecommendationSpec }[] {
  const catalog = createSyntheticCatalog({ seed: 3, size: 5_000 });
  return (['PD', 'SUB'] as const).flatMap((envId) =>
    [0, 1, 2, 3, 4, 5].map((seed) => {
      const episode = new Episode({ envId, d: 4, seed }, catalog);
      episode.reset();
      return episode.hiddenGoal().data as { rec: RecommendationSpec };
    }),
  );
}
