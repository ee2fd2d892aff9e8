// SPEC §6 rev 3: p_oos strikes the seen products the goal would not reward at the goal items'
// rate, so a stock change tells the agent nothing about the goal. Measured on heuristic play:
// the share of seen goal products that went out of stock against the share of the others.
import { describe, expect, it } from 'vitest';
import { createHeuristicAgent } from './agents/heuristic';
import { Episode } from './episode';
import type { CartGoal } from './envs/cart';
import { testCatalog } from './testing';

const catalog = testCatalog();

function play(seed: number, engineVersion?: number) {
  const episode = new Episode({ envId: 'CART', d: 10, seed, ...(engineVersion ? { engineVersion } : {}) }, catalog);
  const agent = createHeuristicAgent();
  let step = episode.reset();
  while (!step.done) step = episode.step(agent.act(step.observation, episode));
  const goal = episode.hiddenGoal().data as CartGoal;
  const targets = new Set(goal.items.map((i) => i.productId));
  const struck = new Set(
    episode.events.flatMap((e) =>
      e.kind === 'world_change' && e.data && 'stockId' in e.data ? [String(e.data.stockId).split('_v_')[0]] : [],
    ),
  );
  return { seen: [...episode.seenIds.keys()], targets, struck };
}

function rates(engineVersion?: number) {
  const n = { goal: 0, goalOut: 0, other: 0, otherOut: 0 };
  for (let seed = 0; seed < 40; seed++) {
    const { seen, targets, struck } = play(seed, engineVersion);
    for (const id of seen)
      if (targets.has(id)) {
        n.goal++;
        if (struck.has(id)) n.goalOut++;
      } else {
        n.other++;
        if (struck.has(id)) n.otherOut++;
      }
  }
  return { ...n, goalRate: n.goalOut / n.goal, otherRate: n.otherOut / Math.max(1, n.other) };
}

describe('p_oos strikes goal and non-goal products alike (CART, d = 10, p_oos 0.5)', () => {
  it('from engine v3 a seen non-target product goes out about as often as a target', () => {
    const r = rates();
    expect(r.goal).toBeGreaterThan(40);
    expect(r.other).toBeGreaterThan(40);
    expect(r.otherRate).toBeGreaterThan(0.3);
    expect(Math.abs(r.goalRate - r.otherRate)).toBeLessThan(0.2);
  });

  it('under engine v2 only targets went out: a stock-out marked a target', () => {
    const r = rates(2);
    expect(r.goalOut).toBeGreaterThan(0);
    expect(r.otherOut).toBe(0);
  });
});
