// The hidden goal never reaches a model: in the first request of every env (both
// modes), no id-like value of the goal appears unless the customer's own opening
// says it (a customer may name their order, for instance).

import { describe, expect, it } from 'vitest';
import { createEpisode, ENV_IDS } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { parseConnection } from './connection';
import { buildRequest } from './table';

function idLike(value: unknown, into: Set<string>) {
  if (typeof value === 'string') {
    if (value.length >= 4 && /\d/.test(value) && !/\s/.test(value)) into.add(value);
  } else if (Array.isArray(value)) value.forEach((v) => idLike(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => idLike(v, into));
}

describe('what a model is sent', () => {
  it('carries no id of the hidden goal the customer did not say (8 envs × d 0, 6, 12 × 3 seeds, both modes)', () => {
    let checked = 0;
    for (const envId of ENV_IDS)
      for (const d of [0, 6, 12])
        for (const seed of [1, 2, 3]) {
          const episode = createEpisode({ envId, d, seed }, testCatalog());
          const observation = episode.reset().observation;
          const ids = new Set<string>();
          idLike(episode.hiddenGoal().data, ids);
          expect(ids.size, `${envId} d=${d} seed=${seed} has goal ids to look for`).toBeGreaterThan(0);
          for (const actionMode of ['tools', 'json'] as const) {
            const request = JSON.stringify(
              buildRequest(
                parseConnection({ name: 'x', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', actionMode }, {}),
                { observations: [observation], actions: [] },
              ),
            );
            for (const id of ids) {
              if (observation.customerMessage!.includes(id)) continue;
              expect(
                request.includes(id),
                `${envId} d=${d} seed=${seed} ${actionMode}: goal value ${id} was sent`,
              ).toBe(false);
              checked++;
            }
          }
        }
    expect(checked).toBeGreaterThan(100);
  });
});
