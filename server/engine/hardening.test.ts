// Issue 7.7: step() takes any input without losing a turn, bad configs get one precise error,
// and nothing handed out (observations, tool results, specs, events) is a handle on the world.

import { describe, expect, it } from 'vitest';
import { MAX_ACTION_CHARS, MAX_ACTION_DEPTH } from './action';
import { Episode } from './episode';
import { listEnvs, toolSpecsFor } from './index';
import { act, testCatalog } from './testing';
import type { Action, EpisodeConfig, EpisodeEvent } from './types';

const catalog = testCatalog();
const begin = (config: Partial<EpisodeConfig> = {}) => {
  const episode = new Episode({ envId: 'CART', d: 2, seed: 3, ...config }, catalog);
  const first = episode.reset();
  return { episode, first };
};

function nested(depth: number): unknown {
  let v: Record<string, unknown> = {};
  const root = v;
  for (let i = 0; i < depth; i++) v = (v.a = {}) as Record<string, unknown>;
  return root;
}

/** Step with a hostile input: one recorded format_invalid on turn 1, never a throw. */
function refused(input: unknown): { error: string; events: EpisodeEvent[] } {
  const { episode } = begin();
  const r = episode.step(input);
  expect(r.done).toBe(true);
  expect(r.termination).toBe('format_invalid');
  expect(r.reward).toBe(-1);
  expect(episode.turn).toBe(1);
  const errors = episode.events.filter((e) => e.kind === 'action_error');
  expect(errors).toHaveLength(1);
  expect(errors[0].turn).toBe(1);
  expect(r.observation.error).toBe((errors[0] as { error: string }).error);
  // the log stays storable
  expect(() => JSON.stringify(episode.events)).not.toThrow();
  return { error: r.observation.error!, events: episode.events };
}

describe('step() takes any input', () => {
  it('records a cyclic action as format_invalid, naming the cycle', () => {
    const call: Record<string, unknown> = { name: 'cart.view', args: {} };
    (call.args as Record<string, unknown>).self = call;
    expect(refused(act({ tool_calls: [call as never] })).error).toBe(
      'action contains a cycle: tool_calls[0].args.self refers back to tool_calls[0]',
    );
  });

  it('records objects nested beyond the limit, even 20,000 deep, as format_invalid', () => {
    expect(refused({ ...act(), answer: nested(20_000) }).error).toBe(
      `action is nested more than ${MAX_ACTION_DEPTH} levels deep (at answer.a.a.a.a.a.a.a…)`,
    );
    const text = `{"assistant_message":"x","answer":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(refused(text.slice(0, MAX_ACTION_CHARS - 2) + '}}').error).toMatch(/^action is not valid JSON/);
    const deepText = `{"assistant_message":"x","tool_calls":[${'['.repeat(40)}${']'.repeat(40)}]}`;
    expect(refused(deepText).error).toBe(
      `action is nested more than ${MAX_ACTION_DEPTH} levels deep (at tool_calls[0][0][0][0][0][0][0]…)`,
    );
  });

  it('accepts ordinary nesting', () => {
    const { episode } = begin();
    const r = episode.step(act({ tool_calls: [{ name: 'cart.view', args: {} }] }));
    expect(r.done).toBe(false);
    expect(r.observation.toolResults[0].error).toBeNull();
  });

  it('refuses huge strings and lists by size, before walking all of them', () => {
    expect(refused(act({ assistant_message: 'a'.repeat(10_000_000) })).error).toBe(
      `action is larger than ${MAX_ACTION_CHARS} characters as JSON; the limit is ${MAX_ACTION_CHARS}`,
    );
    const big = new Array(5_000_000).fill(0);
    expect(refused(act({ tool_calls: big })).error).toMatch(/^action is larger than 65536 characters as JSON/);
    const manyNumbers = new Array(20_000).fill(123456.789);
    expect(refused(act({ tool_calls: manyNumbers })).error).toMatch(/^action is \d+ characters; the limit is 65536$/);
  });

  it('refuses NaN and Infinity with their place (JSON has neither)', () => {
    expect(
      refused(act({ tool_calls: [{ name: 'catalog.search', args: { query: 'x', top_k: Number.NaN } }] })).error,
    ).toBe('action contains NaN at tool_calls[0].args.top_k; JSON numbers must be finite');
    expect(refused(act({ answer: { env: 'CART', done: true, qty: -Infinity } })).error).toBe(
      'action contains -Infinity at answer.qty; JSON numbers must be finite',
    );
  });

  it('refuses __proto__, constructor and prototype keys, in objects and in text', () => {
    const viaText =
      '{"assistant_message":"x","tool_calls":[{"name":"cart.view","args":{"__proto__":{"polluted":true}}}]}';
    expect(refused(viaText).error).toBe(
      'action uses the reserved key "__proto__" at tool_calls[0].args; keys named __proto__, constructor or prototype are refused',
    );
    expect(refused(act({ answer: { env: 'CART', done: true, constructor: 1 } as never })).error).toMatch(
      /reserved key "constructor" at answer;/,
    );
    expect(refused(JSON.parse('{"assistant_message":"x","prototype":{}}')).error).toMatch(
      /reserved key "prototype" at the top level;/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses values that are not JSON data, saying what and where', () => {
    expect(refused(42).error).toBe('action must be a JSON object, got number');
    expect(refused(null).error).toBe('action must be a JSON object, got null');
    expect(refused(undefined).error).toBe('action must be a JSON object, got undefined');
    expect(refused([act()]).error).toBe('action must be a JSON object, got a list');
    expect(refused(() => 1).error).toBe(
      'action contains a function at the top level; an action holds only JSON values',
    );
    expect(refused(Symbol('s')).error).toBe(
      'action contains a symbol at the top level; an action holds only JSON values',
    );
    expect(refused(act({ tool_calls: [{ name: 'x', args: { n: 10n } }] as never })).error).toBe(
      'action contains a bigint at tool_calls[0].args.n; an action holds only JSON values',
    );
    expect(refused(act({ answer: new Map() as never })).error).toBe(
      'action contains a Map object at answer; an action holds only JSON objects, lists, strings, numbers, booleans and null',
    );
    expect(refused({ assistant_message: 'x', when: new Date(0) }).error).toMatch(
      /^action contains a Date object at when;/,
    );
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trapped');
        },
      },
    );
    expect(refused(trap).error).toBe('action could not be read: trapped');
    const getter = Object.defineProperty({ assistant_message: 'x' }, 'tool_calls', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect(refused(getter).error).toBe('action could not be read: no');
  });

  it('keeps only the start of an oversized text in the log', () => {
    const { events } = refused(`${'x'.repeat(200_000)}`);
    const raw = (events.find((e) => e.kind === 'action_error') as { raw: string }).raw;
    expect(raw.length).toBeLessThan(5000);
    expect(raw).toMatch(/… \(200000 characters in all\)$/);
  });

  it('treats an action object exactly as its JSON text (undefined dropped, same events)', () => {
    const object = act({ tool_calls: [{ name: 'catalog.search', args: { query: 'charger', top_k: undefined } }] });
    const a = begin();
    const b = begin();
    a.episode.step(object);
    b.episode.step(JSON.stringify(object));
    expect(JSON.stringify(a.episode.events)).toBe(JSON.stringify(b.episode.events));
    expect(a.episode.events.some((e) => e.kind === 'tool_call' && e.error === null)).toBe(true);
  });

  it('refuses only misuse of the episode itself, before a turn passes', () => {
    const e = new Episode({ envId: 'CART', d: 0, seed: 1 }, catalog);
    expect(() => e.step(act())).toThrow('call reset() before step()');
    expect(e.turn).toBe(0);
  });
});

describe('episode configuration gets one precise error at construction', () => {
  const make = (config: Partial<EpisodeConfig>) => () =>
    new Episode({ envId: 'STATUS', d: 3, seed: 1, ...config }, catalog);
  it.each([
    [{ d: 31 }, 'difficulty d must be an integer from 0 to 30, got 31'],
    [{ d: 280 }, 'difficulty d must be an integer from 0 to 30, got 280'],
    [{ d: -1 }, 'difficulty d must be an integer from 0 to 30, got -1'],
    [{ d: Number.NaN }, 'difficulty d must be an integer from 0 to 30, got NaN'],
    [
      { axisOverrides: { H_orders: 0 } },
      'axis override H_orders (order-history size) must be an integer from 1 to 25, got 0',
    ],
    [
      { axisOverrides: { k_rec: 0 } },
      'axis override k_rec (items to recommend) must be an integer from 1 to 10, got 0',
    ],
    [
      { axisOverrides: { top_k: 1e9 } },
      'axis override top_k (retrieval depth cap) must be an integer from 1 to 200, got 1000000000',
    ],
    [
      { axisOverrides: { B_tool: 100 } },
      'axis override B_tool (tool calls per turn) must be an integer from 1 to 20, got 100',
    ],
    [
      { axisOverrides: { p_oos: -0.1 } },
      'axis override p_oos (out-of-stock chance) must be a number from 0 to 1, got -0.1',
    ],
    [{ seed: 1.5 }, 'seed must be an integer, got 1.5'],
    [{ weights: { task: 0.75, eff: Number.NaN, hall: 0.1 } }, 'reward weight "eff" must be a finite number, got NaN'],
    [{ envId: 'NOPE' as never }, /^unknown environment "NOPE"; available: PD, SUB/],
  ] as const)('%j', (config, message) => {
    expect(make(config as Partial<EpisodeConfig>)).toThrow(message);
  });

  it('supports the whole range: every env resets at d = 0 and d = 30, and at every axis limit', () => {
    const envs = ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE', 'JOURNEY'] as const;
    const corners = [
      {},
      { m: 20, H_orders: 25, B_branch: 12, B_tool: 20, k_rec: 10, T_max: 100 },
      { m: 1, H_orders: 1, B_branch: 1, k_rec: 1, top_k: 1, T_max: 1 },
      { p_missing: 1, p_noise: 1, p_switch: 1, eps_rank: 1, p_oos: 1 },
    ];
    for (const envId of envs)
      for (const d of [0, 30])
        for (const axisOverrides of corners) {
          const e = new Episode({ envId, d, seed: 5, axisOverrides }, catalog);
          expect(
            e.reset().observation.customerMessage,
            `${envId} d=${d} ${JSON.stringify(axisOverrides)}`,
          ).toBeTruthy();
        }
  });
});

/** Writes into every object and list reachable from value (frozen ones refuse silently here). */
function vandalise(value: unknown, seen = new Set<unknown>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  const children = Array.isArray(value) ? [...value] : Object.values(value);
  for (const child of children) vandalise(child, seen);
  try {
    if (Array.isArray(value)) {
      value.push('vandal');
      value.reverse();
    } else for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = 'vandal';
    (value as Record<string, unknown>).extra = 'vandal';
  } catch {
    // frozen: the write was refused, which is also "no effect"
  }
}

describe('what the episode hands out is a copy', () => {
  const script: Action[] = [
    act({ tool_calls: [{ name: 'order.list', args: { days: 365 } }] }),
    act({ tool_calls: [{ name: 'datetime.now', args: {} }] }),
    act({ tool_calls: [{ name: 'order.list', args: { days: 365 } }] }),
  ];
  const play = (vandal: boolean) => {
    const e = new Episode({ envId: 'STATUS', d: 6, seed: 2 }, catalog);
    const outputs: unknown[] = [e.reset()];
    for (const a of script) {
      if (e.done) break;
      const r = e.step(a);
      outputs.push(r);
      if (vandal) {
        vandalise(r);
        vandalise(e.toolSpecs());
        vandalise(e.world());
        vandalise(e.events);
        vandalise(e.breakdown);
        vandalise(toolSpecsFor('STATUS'));
        (e.seenIds as Map<string, number>).set('vandal', 1);
        vandalise(e.axes);
        vandalise(e.config);
      }
    }
    return { e, outputs };
  };

  it('mutating observations, tool results (order.list addresses), specs and events changes nothing', () => {
    const clean = play(false);
    const dirty = play(true);
    // the world, the event log and the goal are what they would have been
    expect(JSON.stringify(dirty.e.events)).toBe(JSON.stringify(clean.e.events));
    expect(dirty.e.world()).toEqual(clean.e.world());
    expect(dirty.e.toolSpecs()).toEqual(clean.e.toolSpecs());
    expect(dirty.e.axes).toEqual(clean.e.axes);
    expect(dirty.e.seenIds.has('vandal')).toBe(false);
    // the addresses were really handed out (so the test did reach them)
    const list = clean.e.events.find((x) => x.kind === 'tool_call' && x.name === 'order.list') as {
      result: { addresses: unknown[] };
    };
    expect(list.result.addresses.length).toBeGreaterThan(0);
    // and a later episode (shared caches: tool specs, catalog) is untouched
    const later = play(false);
    expect(JSON.stringify(later.e.events)).toBe(JSON.stringify(clean.e.events));
    expect(later.e.toolSpecs()).toEqual(toolSpecsFor('STATUS'));
    expect(JSON.stringify(toolSpecsFor('STATUS'))).not.toContain('vandal');
  });

  it("listEnvs hands out copies of the cached answer schemas: a caller's edit reaches nobody else", () => {
    const before = JSON.stringify(listEnvs());
    const mine = listEnvs();
    const schema = mine[0].answerSchema;
    vandalise(mine);
    expect(schema.type).toBe('vandal'); // the caller's copy took the edit
    expect(JSON.stringify(listEnvs())).toBe(before);
    expect(listEnvs()[0].answerSchema).not.toBe(listEnvs()[0].answerSchema);
  });

  it('observations can be edited by their owner (they are copies, not frozen)', () => {
    const { first } = begin();
    first.observation.tools[0].name = 'mine';
    first.observation.tools.pop();
    expect(first.observation.tools[0].name).toBe('mine');
  });

  it("an observation's tool arguments and results are the log's frozen values: writes throw", () => {
    const { episode } = begin({ envId: 'PD' });
    const r = episode.step(act({ tool_calls: [{ name: 'catalog.search', args: { query: 'charger' } }] }));
    const [call] = r.observation.toolResults;
    const cards = call.result as Array<{ title: string }>;
    expect(cards.length).toBeGreaterThan(0);
    expect(() => (cards[0].title = 'mine')).toThrow(TypeError);
    expect(() => cards.pop()).toThrow(TypeError);
    expect(() => ((call.args as { query: string }).query = 'mine')).toThrow(TypeError);
    r.observation.toolResults.pop(); // the list itself is the caller's
    expect(r.observation.toolResults).toEqual([]);
    expect(episode.events.find((e) => e.kind === 'tool_call')).toMatchObject({ args: { query: 'charger' } });
  });

  it('a catalog product shown by get_product stays as it is when the result is edited', () => {
    const { episode } = begin({ envId: 'PD' });
    const id = catalog.search({ query: 'charger', topK: 1 })[0].productId;
    const before = JSON.stringify(catalog.get(id));
    const r = episode.step(act({ tool_calls: [{ name: 'catalog.get_product', args: { product_id: id } }] }));
    vandalise(r.observation.toolResults);
    expect(JSON.stringify(catalog.get(id))).toBe(before);
  });
});
