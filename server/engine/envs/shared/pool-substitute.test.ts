// The substitute pool's bounds (recommend-pool.ts): a candidate whose relevance with similarity 1
// is below the size-th best relevance with similarity 0 gets no cosine and cannot be in the pool.
// Against the same candidates all scored (a pool as large as the candidates leaves none out): the
// first `size` of that full list, by relevance then id, must be the pool — for relevances where
// the similarity weighs little or almost everything, and incompatible candidates at 0. An upper
// bound taken at similarity 0 fails it (checked); one cut at 0.3 does not (the entries at the
// pool's edge here have similarities below that), so pool-equivalence.test.ts covers the resets.

import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Rng } from '../../random';
import { makeConstraints, samplePersonaWeights, type Persona } from './persona';
import { bagStoreOf } from './pool-bags';
import { constraintFilters } from './recommend';
import { columnCandidates, type Relevance } from './recommend-pool';

const catalog = createSyntheticCatalog({ seed: 5, size: 20_000 });
const SCAN = 150; // most categories are large ones: a stride sample of 150 plus the filtered search's finds
// no category keeps its own copy of values (as at 2M): substitute pools are bounded only then
bagStoreOf(catalog, SCAN, undefined, undefined, 0);
const FULL = 20; // few finds meet every constraint: the pool is mostly sample entries of lower s, where similarity decides
const SIZE = 60;
const substitute =
  (lambda: number): Relevance =>
  (s, _u, sim, compatible) =>
    compatible ? lambda * sim + (1 - lambda) * s : 0;

describe('substitute pool bounds', () => {
  it('the pool equals the first entries of every candidate scored, 240 references, λ 0.4 / 0.7 / 0.95', () => {
    let pruned = 0;
    for (let trial = 0; trial < 240; trial++) {
      const rng = new Rng(9000 + trial);
      const reference = catalog.at(rng.int(0, catalog.size - 1));
      const constraints = makeConstraints(reference, 2 + (trial % 4), 0.3, rng);
      const compatibility = constraints.filter((c) => c.op === 'eq').map((c) => c.attr);
      const persona: Persona = {
        weights: samplePersonaWeights(rng, constraints, ['similarity']),
        priceLow: reference.price * 0.5,
        priceHigh: reference.price * 1.5,
        preferredBrand: reference.brand,
      };
      const columns = columnCandidates(
        catalog,
        reference,
        () => constraintFilters(reference.category, constraints),
        SCAN,
        FULL,
      );
      const relevance = substitute([0.4, 0.7, 0.95][trial % 3]);
      const pool = (size: number) =>
        columns.pool(constraints, persona, compatibility, [reference.id], relevance, false, size);
      const all = pool(1e9);
      const top = pool(SIZE);
      expect(top.entries(), `trial ${trial}`).toEqual(all.entries().slice(0, SIZE));
      if (all.length > SIZE) pruned++;
    }
    expect(pruned).toBeGreaterThan(100); // most trials have more candidates than the pool holds
  });
});
