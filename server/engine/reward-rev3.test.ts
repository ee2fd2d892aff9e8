// SPEC §8 revision 3 on whole episodes: what the reward rules give the answers a reward hacker
// would try first (nothing at once, a perfect list it never retrieved, a policy answer it
// never looked up).
import { describe, expect, it } from 'vitest';
import { emptyAgent } from './agents/empty';
import { oracleAgent } from './agents/oracle';

import { act, startEpisode } from './testing';
import { ENV_IDS, type Action, type EnvId } from './types';

const firstOracleAction = (envId: EnvId, d: number, seed: number) => {
  const { episode, first } = startEpisode({ envId, d, seed });
  return { episode, action: oracleAgent.act(first.observation, episode) as Action };
};

describe('reward revision 3 on episodes', () => {
  it('the empty answer in one turn scores exactly −0.75 wherever it is a valid answer', () => {
    let answered = 0;
    for (const envId of ENV_IDS)
      for (const d of [0, 6, 12]) {
        const { episode, first } = startEpisode({ envId, d, seed: 3 });
        const r = episode.step(emptyAgent.act(first.observation, episode));
        expect(r.done).toBe(true);
        // CART's empty answer on an empty cart: F1 = 0 → r_task −1; everywhere else r_task −1 too
        if (episode.termination === 'answered') {
          answered++;
          expect(r.reward).toBeCloseTo(-0.75, 12);
        } else expect(r.reward).toBe(-1);
      }
    // five envs × 3 d take the empty answer (RETURN/STATUS need an id; an empty id is invalid)
    expect(answered).toBeGreaterThanOrEqual(15);
  });

  it("the oracle's PD answer without its retrievals scores at most 0 and fails", () => {
    for (const seed of [1, 2, 3]) {
      const { episode, action } = firstOracleAction('PD', 4, seed);
      // find the oracle's final answer by playing it on a twin episode, then give it blind
      const twin = startEpisode({ envId: 'PD', d: 4, seed }).episode;
      let a = action;
      let obs = twin.step(a);
      while (!obs.done) obs = twin.step((a = oracleAgent.act(obs.observation, twin) as Action));
      expect(obs.breakdown!.isCorrect).toBe(true);
      const r = episode.step(act({ answer: a.answer }));
      expect(r.breakdown!.rTask).toBe(0);
      expect(r.breakdown!.rHall).toBe(-1);
      expect(r.reward).toBeCloseTo(-0.1, 12);
      expect(r.breakdown!.isCorrect).toBe(false);
    }
  });

  it('the right POLICY answer without the policy.search call fails with r_task 0', () => {
    for (const seed of [1, 2, 3]) {
      const { episode, action } = firstOracleAction('POLICY', 6, seed);
      const r = episode.step({ ...action, tool_calls: [] });
      expect(r.breakdown!.rTask).toBe(0);
      expect(r.breakdown!.isCorrect).toBe(false);
      expect(r.reward).toBeCloseTo(0, 12);
    }
  });
});
