// JOURNEY's per-step and per-episode hooks written as loops (issue 13, eleventh round) against the
// formulation they replaced, over many played episodes: the same ids in the same order.
import { afterEach, describe, expect, it } from 'vitest';
import { createRandomAgent } from '../agents/random';
import { oracleAgent } from '../agents/oracle';
import { checkAnswer } from '../answer-check';
import { Episode } from '../episode';
import { testCatalog } from '../testing';
import type { Agent } from '../agents/types';
import { route, type JourneyGoal, type JourneyState } from './journey';
import { ATOMIC_ENVS, getEnv } from './registry';
import type { Answer, EnvContext, EnvDefinition } from './types';

const catalog = testCatalog();
const journey = getEnv('JOURNEY') as unknown as EnvDefinition<JourneyGoal, JourneyState>;
const byId = new Map(ATOMIC_ENVS.map((e) => [e.id as string, e as EnvDefinition<unknown>]));

/** JOURNEY's recommendedIds as it was: two flatMaps and a Set. */
function formerRecommendedIds(answer: Answer | null, ctx: EnvContext, goal: JourneyGoal, state: JourneyState) {
  const given = state.answers.flatMap((a, i) => (a ? [{ index: i, fields: a.fields }] : []));
  return [
    ...new Set(
      [...given, ...route(goal, state, answer)].flatMap(({ index, fields }) =>
        byId
          .get(goal.subtasks[index].envId)!
          .recommendedIds(fields, ctx, goal.subtasks[index].goal, state.tasks[index].state),
      ),
    ),
  ];
}

type Internals = { task: { goal: JourneyGoal; state: JourneyState }; ctx: EnvContext };
const internals = (e: Episode) => e as unknown as Internals;

function play(agent: Agent, seeds: number, each: (e: Episode, action: unknown) => void, overrides = {}) {
  for (let seed = 0; seed < seeds; seed++) {
    const e = new Episode({ envId: 'JOURNEY', d: seed % 13, seed, axisOverrides: overrides }, catalog);
    let { observation } = e.reset();
    while (!e.done) {
      const action = agent.act(observation, e);
      each(e, action);
      observation = e.step(action).observation;
    }
  }
}

const restore: Array<() => void> = [];
afterEach(() => restore.splice(0).forEach((undo) => undo()));

describe('JOURNEY hooks as loops (issue 13)', () => {
  it('recommendedIds gives the former ids, in order, before every step (oracle and random agents, 260 episodes)', () => {
    let compared = 0;
    for (const agent of [oracleAgent, createRandomAgent({ seed: 3, pPartialAnswer: 0.5 })])
      play(agent, 130, (e, action) => {
        const { task, ctx } = internals(e);
        const raw = (action as { answer?: unknown }).answer;
        const checked = raw ? checkAnswer(journey as EnvDefinition<unknown>, raw) : null;
        const answer = typeof checked === 'string' ? null : checked;
        const got = journey.recommendedIds(answer, ctx, task.goal, task.state);
        expect(got).toEqual(formerRecommendedIds(answer, ctx, task.goal, task.state));
        if (got.length > 0) compared++;
      });
    expect(compared).toBeGreaterThan(100);
  });

  it('outOfStock asks every sub-task once per step, in order, and gives the ids a Set of their answers gave (p_oos = 1)', () => {
    const calls: Array<{ env: string; ids: string[] }> = [];
    for (const env of ATOMIC_ENVS) {
      const hook = env.outOfStock as EnvDefinition<unknown>['outOfStock'];
      if (!hook) continue;
      const wrapped: typeof hook = (...args) => {
        const ids = hook(...args);
        calls.push({ env: env.id, ids: [...ids] });
        return ids;
      };
      (env as { outOfStock?: unknown }).outOfStock = wrapped;
      restore.push(() => ((env as { outOfStock?: unknown }).outOfStock = hook));
    }
    const outer = journey.outOfStock!;
    let gone = 0;
    const checked: typeof outer = (task, firstSeen, ctx, draw) => {
      calls.length = 0;
      const ids = outer(task, firstSeen, ctx, draw);
      const expected = task.goal.subtasks.map((s) => s.envId).filter((id) => byId.get(id)!.outOfStock);
      expect(calls.map((c) => c.env)).toEqual(expected);
      expect(ids).toEqual([...new Set(calls.flatMap((c) => c.ids))]);
      gone += ids.length;
      return ids;
    };
    journey.outOfStock = checked;
    restore.push(() => (journey.outOfStock = outer));
    play(oracleAgent, 120, () => {}, { p_oos: 1 });
    play(createRandomAgent({ seed: 5 }), 60, () => {}, { p_oos: 1 });
    expect(gone).toBeGreaterThan(50);
  });
});
