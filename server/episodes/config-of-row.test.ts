// A stored episode replays under the engine rules it was played with (issue 27): configOfRow
// passes an older row's engineVersion on to the engine, and leaves it out for the current one.
import { describe, expect, it } from 'vitest';
import { Episode } from '@/server/engine/episode';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { ENGINE_VERSION } from '@/server/engine/version';
import { configOfRow } from './store';

const row = (engineVersion: number) => ({
  envId: 'PD',
  d: 12,
  seed: 7,
  axisOverrides: '{}',
  weights: null,
  journeyEnvs: null,
  engineVersion,
});

describe('configOfRow and the engine version', () => {
  it('an older row carries its version, and the episode plays under its rules (v2 top_k at d = 12: 80)', () => {
    const config = configOfRow(row(2));
    expect(config.engineVersion).toBe(2);
    expect(new Episode(config, testCatalog()).axes.top_k).toBe(80);
  });

  it('a current row leaves it out (the current rules: top_k 5 at d = 12)', () => {
    const config = configOfRow(row(ENGINE_VERSION));
    expect('engineVersion' in config).toBe(false);
    expect(new Episode(config, testCatalog()).axes.top_k).toBe(5);
  });
});
