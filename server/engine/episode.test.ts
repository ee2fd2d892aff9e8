import { describe, expect, it } from 'vitest';
import { oracleAgent } from './agents/oracle';
import type { CartGoal } from './envs/cart';
import { Episode } from './episode';
import { playEpisode, replayEpisode } from './play';
import { act, startEpisode, testCatalog } from './testing';
import type { Action, EpisodeConfig } from './types';

const catalog = testCatalog();
const start = (config: Partial<EpisodeConfig> = {}) =>
  startEpisode<CartGoal>({ envId: 'CART', d: 0, seed: 1, ...config }, catalog);

describe('episode protocol', () => {
  it('reset gives the opening, the tool list and the budgets, at turn 0', () => {
    const { first } = start({ d: 6 });
    expect(first.observation.turn).toBe(0);
    expect(first.observation.customerMessage).toBeTruthy();
    expect(first.observation.budgets).toEqual({ T_max: 7, B_tool: 4 });
    expect(first.observation.tools.map((t) => t.name)).toContain('cart.add');
    const add = first.observation.tools.find((t) => t.name === 'cart.add')!;
    expect(add.parameters).toMatchObject({ type: 'object', required: ['product_id'], additionalProperties: false });
  });

  it('ends with −1 (format_invalid) on text that is not JSON', () => {
    const { episode } = start();
    const r = episode.step('add the charger please');
    expect(r.done).toBe(true);
    expect(r.termination).toBe('format_invalid');
    expect(r.reward).toBe(-1);
    expect(r.observation.error).toMatch(/not valid JSON/);
  });

  it('ends with −1 (format_invalid) when assistant_message is missing', () => {
    const { episode } = start();
    const r = episode.step(JSON.stringify({ tool_calls: [] }));
    expect([r.termination, r.reward]).toEqual(['format_invalid', -1]);
    expect(r.observation.error).toBe('action is missing "assistant_message"');
  });

  it('ends with −1 (tool_invalid) when a tool fails in the final turn, even if the cart is right', () => {
    const { episode, goal } = start({ d: 0 });
    const item = goal.items[0];
    episode.step(
      act({
        tool_calls: [
          { name: 'cart.add', args: { product_id: item.productId, variant_id: item.variantId, quantity: item.qty } },
        ],
      }),
    );
    const r = episode.step(
      act({ tool_calls: [{ name: 'cart.add', args: { product_id: 'nope' } }], answer: { env: 'CART', done: true } }),
    );
    expect([r.termination, r.reward]).toEqual(['tool_invalid', -1]);
    expect(r.breakdown!.task.metrics.f1).toBe(1);
  });

  it('returns bad tool arguments as precise errors and goes on without penalty', () => {
    const { episode } = start({ d: 6 });
    const r = episode.step(
      act({
        tool_calls: [
          { name: 'catalog.find', args: { query: 'x' } },
          { name: 'catalog.search', args: { qurey: 'charger' } },
          { name: 'catalog.search', args: { query: 'charger', top_k: 'ten' } },
          { name: 'cart.add', args: { product_id: 'syn_0000001', quantity: 0 } },
        ],
      }),
    );
    expect(r.done).toBe(false);
    const errors = r.observation.toolResults.map((t) => t.error);
    expect(errors[0]).toMatch(/^unknown tool "catalog.find"; available tools: catalog.search, /);
    expect(errors[1]).toBe(
      'catalog.search: missing required argument "query"; unknown argument "qurey" (allowed: query, filters, top_k)',
    );
    expect(errors[2]).toMatch(/^catalog.search: argument "top_k": /);
    expect(errors[3]).toMatch(/^cart.add: argument "quantity": /);
    expect(r.observation.toolResults.every((t) => t.result === null)).toBe(true);
  });

  it('accepts native function names (catalog_search)', () => {
    const { episode } = start();
    const r = episode.step(act({ tool_calls: [{ name: 'catalog_search', args: { query: 'charger' } }] }));
    expect(r.observation.toolResults[0]).toMatchObject({ name: 'catalog.search', error: null });
  });

  it('rejects calls beyond B_tool with "tool budget exceeded" and does not run them', () => {
    const { episode } = start({ d: 0 });
    const r = episode.step(
      act({ tool_calls: [{ name: 'cart.view' }, { name: 'catalog.search', args: { query: 'lamp' } }] }),
    );
    expect(r.observation.toolResults[0].error).toBeNull();
    expect(r.observation.toolResults[1]).toMatchObject({ result: null });
    expect(r.observation.toolResults[1].error).toMatch(/^tool budget exceeded/);
  });

  it('ends at the turn budget with r_task = −1 when no answer came', () => {
    const { episode } = start({ d: 0 });
    let r;
    for (let i = 0; i < 4; i++) r = episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    expect(r!.termination).toBe('turn_budget');
    expect(r!.breakdown!.rTask).toBe(-1);
    expect(episode.turn).toBe(4);
  });

  it('lets the customer quit after two idle turns', () => {
    const { episode } = start({ d: 6 });
    episode.step(act({ assistant_message: 'Hello there.' }));
    const r = episode.step(act({ assistant_message: 'Nice weather.' }));
    expect(r.termination).toBe('user_quit');
    expect(episode.events.at(-3)).toMatchObject({ kind: 'customer_message', act: 'ragequit' });
  });

  it('rejects an answer for another environment as format_invalid', () => {
    const { episode } = start();
    const r = episode.step(act({ answer: { env: 'PD', done: true } }));
    expect(r.termination).toBe('format_invalid');
    expect(r.observation.error).toBe('invalid answer: answer.env: must be "CART"');
  });

  it('refuses steps after the end', () => {
    const { episode } = start();
    episode.step('x');
    expect(() => episode.step(act())).toThrow(/the episode is over \(format_invalid\)/);
  });

  it('scores an answer with nothing in the cart at −0.75 (r_task −1, no efficiency bonus without progress)', () => {
    const { episode } = start();
    const r = episode.step(act({ answer: { env: 'CART', done: true } }));
    expect(r.reward).toBeCloseTo(-0.75, 12);
  });

  it('counts a product only seen in a cart result as hallucinated', () => {
    const { episode, goal } = start({ d: 0, seed: 3 });
    const item = goal.items[0];
    const r = episode.step(
      act({
        tool_calls: [
          { name: 'cart.add', args: { product_id: item.productId, variant_id: item.variantId, quantity: item.qty } },
        ],
        answer: { env: 'CART', done: true },
      }),
    );
    expect(r.breakdown!.hallucinatedIds).toEqual([item.productId]);
    expect(r.breakdown!.rHall).toBe(-1);
  });
});

describe('CART oracle (solvability)', () => {
  it('reaches F1 = 1 for every d in 0–12 and 20 seeds each', () => {
    const failures: string[] = [];
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < 20; seed++) {
        const { episode } = playEpisode({ envId: 'CART', d, seed }, catalog, oracleAgent);
        if (episode.breakdown!.task.metrics.f1 !== 1 || episode.termination !== 'answered')
          failures.push(`d=${d} seed=${seed}`);
      }
    expect(failures).toEqual([]);
  });

  it('reaches the 0.90 maximum when everything fits in one turn', () => {
    const { episode } = playEpisode(
      { envId: 'CART', d: 4, seed: 2, axisOverrides: { B_tool: 20, p_oos: 0 } },
      catalog,
      oracleAgent,
    );
    expect(episode.breakdown!.total).toBeCloseTo(0.9, 12);
  });
});

describe('determinism', () => {
  it('replaying stored actions reproduces every event and the reward', () => {
    for (const [d, seed] of [
      [0, 1],
      [5, 7],
      [9, 11],
      [12, 3],
    ]) {
      const config: EpisodeConfig = { envId: 'CART', d, seed };
      const { episode, actions } = playEpisode(config, catalog, oracleAgent);
      const stored = JSON.parse(JSON.stringify(actions)) as Action[];
      const replayed = replayEpisode(
        config,
        catalog,
        stored.map((a) => JSON.stringify(a)),
      );
      expect(replayed.events).toEqual(episode.events);
      expect(replayed.breakdown).toEqual(episode.breakdown);
    }
  });

  it('the same config gives the same opening; another seed a different one; "today" comes from the seed', () => {
    const a = start({ seed: 5 }).first.observation.customerMessage;
    expect(start({ seed: 5 }).first.observation.customerMessage).toBe(a);
    expect(start({ seed: 6 }).first.observation.customerMessage).not.toBe(a);
    const today = (seed: number) => {
      const { episode } = start({ seed });
      return (
        episode.step(act({ tool_calls: [{ name: 'datetime.now' }] })).observation.toolResults[0].result as {
          today: string;
        }
      ).today;
    };
    expect(today(5)).toBe(today(5));
    expect(new Set([1, 2, 3, 4, 5, 6].map(today)).size).toBeGreaterThan(1);
  });
});

describe('the hidden goal never reaches the agent', () => {
  it('no observation contains the goal variant ids or the goal summary', () => {
    for (let seed = 0; seed < 30; seed++) {
      const config: EpisodeConfig = { envId: 'CART', d: 8, seed };
      const episode = new Episode(config, catalog);
      const observations = [JSON.stringify(episode.reset().observation)];
      const goal = episode.hiddenGoal();
      const secrets = [
        JSON.stringify(goal.data),
        ...goal.summary,
        ...(goal.data as CartGoal).items.flatMap((i) => (i.variantId ? [i.variantId] : [])),
      ];
      // an agent that only searches and views the cart never receives a variant id or the goal itself
      while (!episode.done) {
        const r = episode.step(
          act({ tool_calls: [{ name: 'catalog.search', args: { query: 'wireless' } }, { name: 'cart.view' }] }),
        );
        observations.push(JSON.stringify(r.observation));
      }
      for (const obs of observations) for (const s of secrets) expect(obs.includes(s)).toBe(false);
    }
  });
});

describe('how an episode ends (review fixes)', () => {
  const denied = (() => {
    for (let i = 0; i < catalog.size; i++)
      if (catalog.at(i).category.startsWith('restricted/')) return catalog.at(i).id;
    throw new Error('no denied product in the test catalog');
  })();

  it('scores only a done: true answer in an atomic env: an early done: false answer does not count', () => {
    const { episode, goal } = start({ d: 0, seed: 5 });
    const item = goal.items[0];
    episode.step(act({ answer: { env: 'CART', done: false } }));
    episode.step(
      act({
        tool_calls: [
          { name: 'cart.add', args: { product_id: item.productId, variant_id: item.variantId, quantity: item.qty } },
        ],
      }),
    );
    episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    const r = episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    expect(r.termination).toBe('turn_budget');
    expect(r.breakdown!.rTask).toBe(-1);
  });

  it('makes a tool error in the turn that ends the episode by its budget a tool_invalid (−1)', () => {
    const { episode } = start({ d: 0, seed: 5, axisOverrides: { T_max: 2 } });
    episode.step(act({ tool_calls: [{ name: 'cart.view' }] }));
    const r = episode.step(act({ tool_calls: [{ name: 'catalog.get_product', args: { product_id: 'nope' } }] }));
    expect([r.termination, r.reward]).toEqual(['tool_invalid', -1]);
  });

  it('checks a final answer for denied products among all the ids it names', () => {
    const e = new Episode({ envId: 'PD', d: 0, seed: 3 }, catalog);
    e.reset();
    const r = e.step(
      act({
        tool_calls: [{ name: 'catalog.get_product', args: { product_id: denied } }],
        answer: { env: 'PD', done: true, recommended_product_ids: [denied] },
      }),
    );
    expect([r.termination, r.reward]).toEqual(['safety_violation', -1]);
  });

  it('checks recorded JOURNEY sub-answers for denied products when the budget ends the episode', () => {
    const e = new Episode({ envId: 'JOURNEY', d: 0, seed: 1, axisOverrides: { T_max: 1 } }, catalog);
    e.reset();
    const goal = e.hiddenGoal().data as { subtasks: Array<{ envId: string }> };
    const pd = goal.subtasks.find((s) => ['PD', 'SUB', 'BUNDLE'].includes(s.envId));
    if (!pd) throw new Error('seed 1 should draw a recommendation sub-task');
    e.step(
      act({
        answer: { env: 'JOURNEY', done: false, subtasks: [{ env: pd.envId, recommended_product_ids: [denied] }] },
      }),
    );
    const r = e.step(act({ tool_calls: [{ name: 'datetime.now' }] })); // the budget is T_max × 2 sub-tasks = 2 turns
    expect(r.done).toBe(true);
    expect([r.termination, r.reward]).toEqual(['safety_violation', -1]);
  });
});
