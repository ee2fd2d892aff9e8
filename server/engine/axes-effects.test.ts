// One test per difficulty axis, each showing the axis acting on real episodes (SPEC §6 FIX:
// all twelve axes act). Several are also covered in more depth beside their environment.

import { describe, expect, it } from 'vitest';
import type { AxisValues } from './difficulty';
import { act, startEpisode, testCatalog } from './testing';
import type { EnvId } from './types';

const catalog = testCatalog();
const start = (envId: EnvId, d: number, seed: number, axisOverrides: Partial<AxisValues> = {}) =>
  startEpisode({ envId, d, seed, axisOverrides }, catalog);
const seeds = Array.from({ length: 12 }, (_, i) => i);

describe('each axis acts on episodes', () => {
  it('m: PD asks for m constraints', () => {
    for (const m of [2, 3, 4])
      for (const seed of seeds) expect(start('PD', 6, seed, { m }).goal.rec.constraints.length).toBe(m);
  });

  it('k_rec: PD scores the first k_rec recommendations', () => {
    for (const k of [3, 6]) expect(start('PD', 0, 1, { k_rec: k }).goal.rec.k).toBe(k);
  });

  it('T_max: the episode ends after T_max turns', () => {
    const { episode } = start('CART', 0, 1, { T_max: 2 });
    episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    const r = episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    expect([r.done, r.termination]).toEqual([true, 'turn_budget']);
  });

  it('p_missing: 0 states every slot in the opening, 1 leaves out every non-critical one', () => {
    for (const seed of seeds) {
      const none = start('PD', 6, seed, { p_missing: 0 }).episode.hiddenGoal().slots as Array<{
        omitted: boolean;
        critical: boolean;
      }>;
      expect(none.some((s) => s.omitted)).toBe(false);
      const all = start('PD', 6, seed, { p_missing: 1 }).episode.hiddenGoal().slots as Array<{
        omitted: boolean;
        critical: boolean;
      }>;
      expect(all.filter((s) => !s.critical).every((s) => s.omitted)).toBe(true);
    }
  });

  it('p_noise: the same task reads differently with noise on', () => {
    let changed = 0;
    for (const seed of seeds) {
      const clean = start('CART', 3, seed, { p_noise: 0 }).first.observation.customerMessage;
      const noisy = start('CART', 3, seed, { p_noise: 0.125 }).first.observation.customerMessage;
      if (clean !== noisy) changed++;
    }
    expect(changed).toBeGreaterThanOrEqual(10);
  });

  it('p_switch: 1 makes the customer switch requests in JOURNEY, 0 never (see envs/journey.test.ts)', () => {
    const switched = (p: number) => {
      const { episode } = start('JOURNEY', 8, 1, { p_switch: p, p_noise: 0 });
      return /before I forget|let me ask this first/.test(
        episode.step(act({ tool_calls: [{ name: 'datetime.now' }] })).observation.customerMessage ?? '',
      );
    };
    expect([switched(1), switched(0)]).toEqual([true, false]);
  });

  it('top_k: caps the depth of catalog.search', () => {
    const { episode } = start('PD', 0, 1, { top_k: 5 });
    const r = episode.step(act({ tool_calls: [{ name: 'catalog.search', args: { query: 'charger', top_k: 50 } }] }));
    expect((r.observation.toolResults[0].result as unknown[]).length).toBe(5);
  });

  it('eps_rank: 0 returns the ranked results, 1 replaces nearly all of them', () => {
    const ids = (eps: number) => {
      const { episode } = start('PD', 0, 1, { eps_rank: eps });
      const r = episode.step(
        act({ tool_calls: [{ name: 'catalog.search', args: { query: 'wireless headphones', top_k: 20 } }] }),
      );
      return (r.observation.toolResults[0].result as Array<{ product_id: string }>).map((c) => c.product_id);
    };
    const ranked = catalog.search({ query: 'wireless headphones', topK: 20 }).map((h) => h.productId);
    expect(ids(0)).toEqual(ranked);
    const noisy = ids(1);
    expect(noisy.filter((id, i) => id !== ranked[i]).length).toBeGreaterThanOrEqual(16);
  });

  it('p_oos: 1 takes seen items out of stock after the first retrieval, 0 never', () => {
    const changes = (p: number) => {
      const { episode, goal } = start('CART', 6, 2, { p_oos: p });
      const ids = (goal.items as Array<{ productId: string }>).map((i) => ({
        name: 'catalog.get_product',
        args: { product_id: i.productId },
      }));
      episode.step(act({ tool_calls: ids }));
      return episode.events.filter((e) => e.kind === 'world_change').length;
    };
    expect(changes(0)).toBe(0);
    expect(changes(1)).toBeGreaterThan(0);
  });

  it('H_orders: sets the number of orders in the customer history', () => {
    for (const h of [1, 3, 6]) {
      const { episode } = start('STATUS', 4, 2, { H_orders: h });
      const r = episode.step(act({ tool_calls: [{ name: 'order.list', args: { days: 365 } }] }));
      expect((r.observation.toolResults[0].result as { orders: unknown[] }).orders.length).toBe(5 * h + 5); // STATUS: 5·H_orders + 5
    }
  });

  it('B_branch: a POLICY question states 3·B_branch + 1 facts (engine v4) and its rule rests on 1..B_branch of them', () => {
    for (const b of [1, 2, 3, 4])
      for (const seed of seeds.slice(0, 5)) {
        const { goal } = start('POLICY', 6, seed, { B_branch: b });
        expect(Object.keys(goal.facts).length).toBeGreaterThanOrEqual(1);
        expect(Object.keys(goal.facts).length).toBeLessThanOrEqual(b);
        // all 12 fields cannot always be stated: some would make another rule apply
        const stated = Object.keys({ ...goal.facts, ...goal.distractors }).length;
        expect(stated).toBeLessThanOrEqual(3 * b + 1);
        expect(stated).toBeGreaterThanOrEqual(Math.min(3 * b + 1, 10));
      }
  });

  it('B_tool: calls beyond B_tool in one turn are not run', () => {
    const { episode } = start('CART', 0, 1, { B_tool: 2 });
    const r = episode.step(act({ tool_calls: [{ name: 'cart.view' }, { name: 'cart.view' }, { name: 'cart.view' }] }));
    expect(r.observation.toolResults.map((t) => t.error === null)).toEqual([true, true, false]);
  });
});
