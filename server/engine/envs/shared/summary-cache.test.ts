import { describe, expect, it } from 'vitest';
import { oracleAgent } from '../../agents/oracle';
import { Episode } from '../../episode';
import { testCatalog } from '../../testing';
import type { EnvId } from '../../types';
import { createWorld } from '../../world/state';
import type { EnvContext } from '../types';
import { summaryByStock } from './summary-cache';

describe('summaryByStock: a summary kept per goal until the stock changes', () => {
  it('builds once per (goal, world, stock); a stock change, another world or another goal builds again', () => {
    let builds = 0;
    const summarize = summaryByStock<{ id: string }>((goal, ctx) => {
      builds++;
      return [`${goal.id}: ${ctx.world.stockChanges.map((c) => c.id).join(',')}`];
    });
    const world = createWorld('2026-12-01');
    const ctx = { world, catalog: testCatalog() } as EnvContext;
    const goal = { id: 'g' };
    const first = summarize(goal, ctx);
    expect(summarize(goal, ctx)).toBe(first); // kept: no second build
    expect(builds).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);

    world.stockOverrides.set('p1', 0);
    world.stockChanges.push({ id: 'p1', turn: 2, before: 3 });
    expect(summarize(goal, ctx)).toEqual(['g: p1']);
    expect(builds).toBe(2);

    expect(summarize(goal, { ...ctx, world: createWorld('2026-12-01') })).toEqual(['g: ']);
    expect(summarize({ id: 'h' }, ctx)).toEqual(['h: p1']);
    expect(builds).toBe(4);
  });
});

/** Oracle play with p_oos = 1, reading the goal after every step (as the trainer recorder does). */
function playReading(envId: EnvId, seed: number) {
  const config = { envId, d: 6, seed, axisOverrides: { p_oos: 1 } };
  const episode = new Episode(config, testCatalog());
  let { observation } = episode.reset();
  const actions: unknown[] = [];
  const summaries: string[][] = [episode.hiddenGoal().summary];
  while (!episode.done) {
    const action = oracleAgent.act(observation, episode);
    actions.push(action);
    observation = episode.step(action).observation;
    summaries.push(episode.hiddenGoal().summary);
  }
  return { config, actions, summaries, events: episode.events };
}

describe('the hidden goal summary follows the stock (out of stock at a step)', () => {
  for (const envId of ['PD', 'SUB', 'JOURNEY'] as const)
    it(`${envId}: after a step that takes an item out of stock the summary names it and equals a fresh one`, () => {
      let checked = 0;
      for (let seed = 0; seed < 40 && checked < 2; seed++) {
        const played = playReading(envId, seed);
        const stockIds = played.events.flatMap((e) =>
          e.kind === 'world_change' && e.data && 'stockId' in e.data
            ? [{ turn: e.turn, id: String(e.data.stockId) }]
            : [],
        );
        // the first stock-out of a goal item (rev 3 also strikes seen non-goal products; the summary lists only the goal's)
        const first = stockIds.find(({ turn, id }) =>
          played.summaries[turn].some((l) => l.includes(`went out of stock at turn ${turn}: ${id}`)),
        );
        if (!first) continue;
        const { turn, id } = first;
        const before = played.summaries[turn - 1];
        const after = played.summaries[turn];
        expect(before.some((l) => l.includes(`went out of stock at turn ${turn}: ${id}`))).toBe(false);
        expect(after.some((l) => l.includes(`went out of stock at turn ${turn}: ${id}`))).toBe(true);
        const ideal = after.find((l) => l.includes('ideal list now:'))!;
        expect(
          ideal
            .split('ideal list now:')[1]
            .split(', ')
            .map((s) => s.trim()),
        ).not.toContain(id);

        // The same actions in an episode whose goal was never read: what it says is what was kept.
        const twin = new Episode(played.config, testCatalog());
        twin.reset();
        for (const action of played.actions.slice(0, turn)) twin.step(action);
        expect(twin.hiddenGoal().summary).toEqual(after);
        checked++;
      }
      expect(checked).toBe(2);
    });

  it('the summary handed out is the caller’s own copy', () => {
    const episode = new Episode({ envId: 'PD', d: 3, seed: 1 }, testCatalog());
    episode.reset();
    const first = episode.hiddenGoal().summary;
    first.push('changed by a caller');
    expect(episode.hiddenGoal().summary).not.toContain('changed by a caller');
  });
});
