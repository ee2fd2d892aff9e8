// Fuzz (issue 7): hostile actions never throw, rewards stay in [−1, 0.9], and replaying the
// stored actions gives identical events. A seeded sample here; `npm run fuzz` sends 10,000
// actions per env and prints the counts.
import { describe, expect, it } from 'vitest';
import { testCatalog } from './testing/catalog-fixture';
import { fuzzEnv } from './testing/fuzz';
import { ENV_IDS } from './types';

const catalog = testCatalog();

describe('fuzz: hostile actions', () => {
  it.each(ENV_IDS)(
    '%s: 200 hostile and random actions, no throw, rewards in range, exact replay',
    (envId) => {
      const stats = fuzzEnv(envId, catalog, 200, 7);
      expect(stats.failures).toEqual([]);
      expect(stats.actions).toBeGreaterThanOrEqual(200);
      // the sample really reached the hostile kinds and ended episodes in several ways
      expect(Object.keys(stats.byKind).length).toBeGreaterThan(12);
      expect(stats.terminations.format_invalid).toBeGreaterThan(0);
      expect(stats.rewardMin).toBe(-1);
      expect(stats.rewardMax).toBeLessThanOrEqual(0.9);
    },
    120_000,
  );
});
