// checkEnv on the eight registered environments: each is solvable by its oracle at d 0–12,
// keeps rewards in range, replays deterministically and never shows its goal. And checkEnv
// itself finds problems: an unregistered env, an oracle that does not solve, a leaking goal.

import { describe, expect, it } from 'vitest';
import type { Agent } from '../agents/types';
import { availableEnvs, getEnv } from '../envs/registry';
import { Episode } from '../episode';
import { testCatalog } from './catalog-fixture';
import { checkEnv, episodeProblems, playRecorded } from './check-env';

const catalog = testCatalog();

describe.each(availableEnvs().map((env) => env.id))('checkEnv(%s)', (envId) => {
  it('finds no problem', () => {
    expect(checkEnv(getEnv(envId), { catalog, oracleSeeds: 1, randomEpisodes: 8 })).toEqual([]);
  });
});

describe('checkEnv finds problems', () => {
  it('an env that is not registered', () => {
    const copy = { ...getEnv('PD') };
    expect(checkEnv(copy, { catalog })).toEqual([
      'PD is not registered: add it to ENV_IDS (server/engine/types.ts) and envs/registry.ts',
    ]);
  });

  it('an oracle that does not solve the task', () => {
    const giveUp: Agent = {
      name: 'give-up',
      act: () => ({
        assistant_message: 'Sorry.',
        tool_calls: [],
        answer: { env: 'STATUS', done: true, selected_order_id: 'ORD-0', order_status: 'CONFIRMED' },
      }),
    };
    const problems = checkEnv(getEnv('STATUS'), { catalog, oracleSeeds: 1, randomEpisodes: 0, oracle: giveUp });
    expect(problems).toHaveLength(13);
    expect(problems[0]).toMatch(/^STATUS d=0 seed=0: the oracle did not pass \(answered, r_task /);
  });

  it('an observation that shows the goal', () => {
    const played = playRecorded({ envId: 'PD', d: 2, seed: 4 }, catalog, {
      name: 'quiet',
      act: () => ({
        assistant_message: 'Done.',
        tool_calls: [],
        answer: { env: 'PD', done: true, recommended_product_ids: [] },
      }),
    });
    expect(episodeProblems(played, catalog)).toEqual([]);
    // an observation that carries the goal (here as a tool result) is reported
    const goal = new Episode(played.config, catalog);
    goal.reset();
    played.observations.push(JSON.stringify({ toolResults: [{ result: goal.hiddenGoal().data }] }));
    expect(episodeProblems(played, catalog)).toEqual([
      expect.stringMatching(
        new RegExp(`^PD d=2 seed=4: observation ${played.observations.length - 1} shows the hidden goal`),
      ),
    ]);
  });
});
