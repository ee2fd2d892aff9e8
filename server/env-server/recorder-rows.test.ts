// The recorder's hidden-goal text reuses the goal data's JSON from one step to the next; it must
// stay the exact bytes of serialising the whole stored shape afresh, in every env, every step.
import { describe, expect, it } from 'vitest';
import { createRandomAgent, listEnvs, oracleAgent, type EnvId } from '@/server/engine';
import { hiddenGoalJson } from './recorder';
import { makeService } from './test/helpers';

const ENVS = listEnvs().map((e) => e.id as EnvId);

/** The stored shape serialised from scratch (what the recorder wrote before the reuse). */
function fresh(g: { envId: string; summary: string[]; data: unknown; slots?: unknown }) {
  return JSON.stringify({
    envId: g.envId,
    summary: g.summary,
    data: g.data,
    ...(g.slots !== undefined ? { slots: g.slots } : {}),
  });
}

describe('hiddenGoalJson', () => {
  it.each(ENVS)(
    '%s: equals JSON.stringify of the stored goal after the reset and every step (oracle and a random agent)',
    (envId) => {
      let checked = 0;
      for (const [agent, d, seed] of [
        ['oracle', 6, 11],
        ['random', 9, 12],
      ] as const) {
        const s = makeService();
        const { live, response } = s.reset({ env: envId, d, seed });
        const random = createRandomAgent({ seed, pInvalid: 0.3, pPartialAnswer: 0.2 });
        let observation = response.observation;
        for (;;) {
          expect(hiddenGoalJson(live.episode.hiddenGoal())).toBe(fresh(live.episode.hiddenGoal()));
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

  it('serialises a changed goal afresh (the reuse is per goal object, and an absent slots key stays absent)', () => {
    const data = { want: ['a'] };
    expect(hiddenGoalJson({ envId: 'PD', summary: ['x'], data })).toBe(
      '{"envId":"PD","summary":["x"],"data":{"want":["a"]}}',
    );
    const other = { want: ['b'] };
    expect(hiddenGoalJson({ envId: 'PD', summary: ['y'], data: other, slots: { size: 1 } })).toBe(
      '{"envId":"PD","summary":["y"],"data":{"want":["b"]},"slots":{"size":1}}',
    );
  });
});
