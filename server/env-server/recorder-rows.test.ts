// The recorder stores a trainer episode's hidden goal without its data (stored-goal.ts); what a
// reader gets back — the data derived from the row's config — must be exactly the live goal,
// in every env, after the reset and after every step (so the data really is fixed for the
// episode), and the stored text must be what JSON.stringify of the stored shape gives.
import { describe, expect, it } from 'vitest';
import { createRandomAgent, ENGINE_VERSION, listEnvs, oracleAgent, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing';
import { deriveGoalData, goalDataIsDerived, readStoredGoal } from '@/server/episodes/stored-goal';
import { goalWithoutDataJson } from '@/server/episodes/stored-goal';
import { makeService } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);

/** The app's goal shape serialised from scratch (what the web playground stores). */
function full(g: { envId: string; summary: string[]; data: unknown; slots?: unknown }) {
  return JSON.stringify({
    envId: g.envId,
    summary: g.summary,
    data: g.data,
    ...(g.slots !== undefined ? { slots: g.slots } : {}),
  });
}

describe('the stored hidden goal of a trainer episode', () => {
  it.each(ENVS)(
    '%s: reads back as the live goal (data derived from the config) after the reset and every step',
    (envId) => {
      let checked = 0;
      for (const [agent, d, seed] of [
        ['oracle', 6, 11],
        ['random', 9, 12],
      ] as const) {
        const s = makeService();
        const { live, response } = s.reset({ env: envId, d, seed });
        const derived = deriveGoalData(live.episode.config, testCatalog, ENGINE_VERSION);
        const random = createRandomAgent({ seed, pInvalid: 0.3, pPartialAnswer: 0.2 });
        let observation = response.observation;
        for (;;) {
          const g = live.episode.hiddenGoal();
          const stored = goalWithoutDataJson(g);
          expect(stored).toBe(
            JSON.stringify({
              envId: g.envId,
              summary: g.summary,
              dataFromConfig: true,
              ...(g.slots !== undefined ? { slots: g.slots } : {}),
            }),
          );
          expect(goalDataIsDerived(stored)).toBe(true);
          expect(full(readStoredGoal(stored, () => derived))).toBe(full(g));
          checked++;
          if (live.episode.done) break;
          const action =
            agent === 'oracle' ? oracleAgent.act(observation, live.episode) : random.act(observation, live.episode);
          observation = s.stepLive(live, action).observation;
        }
      }
      expect(checked).toBeGreaterThan(3);
    },
  );

  it('derives no data for rules this engine cannot replay (an older engine generated that goal)', () => {
    const config = { envId: 'PD' as const, d: 3, seed: 5 };
    expect(deriveGoalData(config, testCatalog, ENGINE_VERSION)).not.toBeNull();
    expect(deriveGoalData(config, testCatalog, ENGINE_VERSION + 1)).toBeNull();
  });

  it('reads a goal stored with its data unchanged, without deriving anything', () => {
    const stored = '{"envId":"PD","summary":["x"],"data":{"want":["a"]},"slots":{"size":1}}';
    expect(goalDataIsDerived(stored)).toBe(false);
    expect(
      readStoredGoal(stored, () => {
        throw new Error('derived');
      }),
    ).toEqual({ envId: 'PD', summary: ['x'], data: { want: ['a'] }, slots: { size: 1 } });
    // the marker is the top-level key, not the same text deeper inside
    expect(goalDataIsDerived('{"envId":"PD","summary":[],"data":{"dataFromConfig":true}}')).toBe(false);
    expect(goalWithoutDataJson({ envId: 'PD', summary: ['y'] })).toBe(
      '{"envId":"PD","summary":["y"],"dataFromConfig":true}',
    );
  });
});
