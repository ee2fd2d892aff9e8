// The evaluation pools built in slices (a server's event loop pauses between categories) are the
// pools built in one go: every reset that reads them gives the same task, world and observation.
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../../catalog/synthetic';
import { Episode } from '../../episode';
import type { EnvId } from '../../types';
import { prepareEvaluationPools, prepareEvaluationPoolsInSlices } from './recommend';

const resetText = (catalog: ReturnType<typeof createSyntheticCatalog>, envId: EnvId, seed: number) => {
  const episode = new Episode({ envId, d: (seed % 4) * 3, seed }, catalog);
  return JSON.stringify({ first: episode.reset(), goal: episode.hiddenGoal(), events: episode.events });
};

describe('evaluation pools built in slices', () => {
  it('pause between categories and within large ones, and the same resets as pools built in one go', async () => {
    const inOneGo = createSyntheticCatalog({ seed: 2, size: 25_000 });
    const inSlices = createSyntheticCatalog({ seed: 2, size: 25_000 });
    prepareEvaluationPools(inOneGo);
    let pauses = 0;
    await prepareEvaluationPoolsInSlices(inSlices, async () => void pauses++);
    // one pause after each category, more inside the categories that store more than 50 bags
    expect(pauses).toBeGreaterThan(inSlices.categories().length);
    const built = pauses;
    await prepareEvaluationPoolsInSlices(inSlices, async () => void pauses++); // built: no second build
    expect(pauses).toBe(built);
    for (const envId of ['PD', 'SUB', 'RETURN', 'JOURNEY'] as EnvId[])
      for (let seed = 0; seed < 5; seed++)
        expect(resetText(inSlices, envId, seed)).toBe(resetText(inOneGo, envId, seed));
  }, 60_000);
});
