// The goal as the playground, the curriculum, batch runs and imports store it: one rule
// (storedGoalOf) instead of four copies.
import { describe, expect, it } from 'vitest';
import { createEpisode } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { storedGoalOf } from './stored-goal';

describe('storedGoalOf', () => {
  it("keeps the engine goal's envId, summary, data and slots, never its live state", () => {
    const episode = createEpisode({ envId: 'PD', d: 4, seed: 7 }, testCatalog());
    episode.reset();
    const live = episode.hiddenGoal();
    expect(live.state).toBeDefined(); // what is left out
    const stored = storedGoalOf(episode);
    expect(Object.keys(stored).sort()).toEqual(['data', 'envId', 'slots', 'summary']);
    expect(stored).toEqual({ envId: 'PD', summary: live.summary, data: live.data, slots: live.slots });
  });

  it('leaves slots out when the env has none', () => {
    const goal = { envId: 'CART', summary: ['buy it'], data: { sku: 'x' }, state: { cart: [] } };
    expect(JSON.stringify(storedGoalOf({ hiddenGoal: () => goal }))).toBe(
      '{"envId":"CART","summary":["buy it"],"data":{"sku":"x"}}',
    );
  });
});
