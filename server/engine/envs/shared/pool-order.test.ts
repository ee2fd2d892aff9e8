// The evaluation pool's order on a catalog whose ids do not ascend with the product index (an
// imported catalog's): relevance descending, ties by id, whatever the index order says.

import { describe, expect, it } from 'vitest';
import { createCatalogFromProducts } from '../../catalog/from-products';
import { Episode } from '../../episode';
import { testCatalog } from '../../testing/catalog-fixture';
import type { RecommendationSpec } from './recommend';

// every product of a few categories, ids renamed so that id order is the reverse of index order
const source = testCatalog();
const products = Array.from({ length: source.size }, (_, i) => source.at(i))
  .filter((p) => /^(electronics|home)\//.test(p.category))
  .map((p, i, all) => ({ ...p, attrs: { ...p.attrs }, id: `X${String(all.length - i).padStart(6, '0')}` }));
const catalog = createCatalogFromProducts('reversed-ids', products);

describe('evaluation pool order, ids not ascending with the index', () => {
  it('sorts each PD and SUB pool by relevance, then id (ties among zero relevance included)', () => {
    let ties = 0;
    for (const envId of ['PD', 'SUB'] as const)
      for (let seed = 0; seed < 12; seed++) {
        const episode = new Episode({ envId, d: 3, seed }, catalog);
        episode.reset();
        const { pool } = (episode.hiddenGoal().data as { rec: RecommendationSpec }).rec;
        expect(pool.length).toBeGreaterThan(10);
        for (let j = 1; j < pool.length; j++) {
          const [a, b] = [pool[j - 1], pool[j]];
          expect(a.rel > b.rel || (a.rel === b.rel && a.id < b.id), `${envId} seed ${seed} at ${j}`).toBe(true);
          if (a.rel === b.rel) ties++;
        }
      }
    expect(ties).toBeGreaterThan(0);
  });
});
