// pool-positions.ts: a pool's positions read through its category's id → row Map against the Map
// of the pool's own ids it replaces, for pools of both modes over many references, asked about
// every pool id, the excluded reference, other products of the category and of other categories,
// and ids no product has. Pools are built one after another, as resets do.
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Rng } from '../../random';
import { makeConstraints, samplePersonaWeights, type Persona } from './persona';
import { constraintFilters } from './recommend';
import type { EvaluationPool } from './evaluation-pool';
import { columnCandidates, type Relevance } from './recommend-pool';

const catalog = createSyntheticCatalog({ seed: 5, size: 20_000 });
const discovery: Relevance = (s, u) => u * s * s;
const substitute: Relevance = (s, _u, sim, compatible) => (compatible ? 0.7 * sim + 0.3 * s : 0);

describe('EvaluationPool.positionOf', () => {
  it('answers as a Map of the pool ids would, 300 pools of both modes (20k products)', () => {
    // every category of this catalog keeps its own copy of values: every pool's positions are
    // read through its category's id → row Map (pool-positions.ts)
    const built: { trial: number; pool: EvaluationPool; want: Map<string, number> }[] = [];
    for (let trial = 0; trial < 300; trial++) {
      const rng = new Rng(4000 + trial);
      const reference = catalog.at(rng.int(0, catalog.size - 1));
      const constraints = makeConstraints(reference, 1 + (trial % 4), 0.3, rng);
      const persona: Persona = {
        weights: samplePersonaWeights(rng, constraints, ['similarity']),
        priceLow: reference.price * 0.5,
        priceHigh: reference.price * 1.5,
        preferredBrand: reference.brand,
      };
      const mode = trial % 2 === 0;
      const size = [500, 120, 40][trial % 3]; // pools holding every candidate and pools cut short
      const columns = columnCandidates(
        catalog,
        reference,
        () => constraintFilters(reference.category, constraints),
        1500,
        600,
      );
      const pool = columns.pool(
        constraints,
        persona,
        [],
        mode ? [] : [reference.id],
        mode ? discovery : substitute,
        mode,
        size,
      );
      const want = new Map(pool.ids.map((id, i) => [id, i]));
      const asked = [
        ...pool.ids,
        reference.id,
        ...catalog.indicesInCategory(reference.category).map((i) => catalog.at(i).id),
        ...Array.from({ length: 20 }, () => catalog.at(rng.int(0, catalog.size - 1)).id),
        'syn_9999999',
        '',
        'not an id',
      ];
      for (const id of asked) expect(pool.positionOf(id), `trial ${trial}: ${id}`).toBe(want.get(id));
      built.push({ trial, pool, want });
    }
    // again after every later pool was built: a pool's positions are its own, not a reused array
    for (const { trial, pool, want } of built)
      for (const [id, at] of want) expect(pool.positionOf(id), `trial ${trial} later: ${id}`).toBe(at);
  });
});
