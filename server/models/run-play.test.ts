// A batch run's built-in heuristic continues its driver from turn to turn (run-play.ts's
// drivers, passed to chooseTableAction) instead of replaying every observation: it must choose exactly the actions
// of the in-process heuristic, on long episodes (JOURNEY, d = 12) as on short ones.

import { describe, expect, it } from 'vitest';
import { createHeuristicAgent, ENV_IDS, playEpisode } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { playRunCell } from './run-play';

describe('a batch run of the heuristic', () => {
  it('takes the in-process heuristic’s actions on every env and difficulty', async () => {
    let longest = 0;
    for (const envId of ENV_IDS)
      for (const d of [0, 12])
        for (const seed of [1, 2]) {
          const job = {
            player: { kind: 'agent' as const, agent: 'heuristic' as const },
            maxEvents: 1e6,
            maxBytes: 1e9,
          };
          const played = await playRunCell({ envId, d, seed }, job, testCatalog(), new AbortController().signal);
          const want = playEpisode({ envId, d, seed }, testCatalog(), createHeuristicAgent()).actions;
          expect(played.infra, `${envId} d=${d} seed=${seed}`).toBeNull();
          expect(
            played.actions.map((a) => JSON.parse(a.raw)),
            `${envId} d=${d} seed=${seed}`,
          ).toEqual(want);
          longest = Math.max(longest, want.length);
        }
    expect(longest).toBeGreaterThan(5); // the continued driver was used over many turns
  });
});
