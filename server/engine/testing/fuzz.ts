// Hostile-action fuzzing (issue 7, "what must be true"): cyclic, deep, huge, NaN, prototype
// keys, wrong types, bad tool names and arguments, and random valid-looking actions. Used by
// fuzz.test.ts (a seeded sample) and `npm run fuzz` (10,000 actions per env).

import { jsonDataError } from '../action';
import { createRandomAgent } from '../agents/random';
import type { Catalog } from '../catalog/types';
import { Episode } from '../episode';
import { replayEpisode } from '../play';
import { Rng } from '../random';
import type { EnvId, Observation } from '../types';

type Hostile = (rng: Rng, obs: Observation) => unknown;

const base = (over: Record<string, unknown> = {}) => ({
  assistant_message: 'ok',
  tool_calls: [],
  answer: null,
  ...over,
});

function deep(depth: number): unknown {
  let v: Record<string, unknown> = {};
  const root = v;
  for (let i = 0; i < depth; i++) v = (v.x = {}) as Record<string, unknown>;
  return root;
}

/** Whole-action attacks: each ends the episode as format_invalid. */
const ACTION_LEVEL: Record<string, Hostile> = {
  cyclic: () => {
    const a: Record<string, unknown> = base();
    a.self = a;
    return a;
  },
  cyclicArgs: () => {
    const args: Record<string, unknown> = { query: 'x' };
    args.loop = [args];
    return base({ tool_calls: [{ name: 'catalog.search', args }] });
  },
  deep: (rng) => base({ answer: deep(rng.pick([33, 100, 12_000])) }),
  deepText: (rng) => `{"assistant_message":"x","tool_calls":${'['.repeat(rng.int(33, 3000))}${']'.repeat(3000)}}`,
  hugeString: () => base({ assistant_message: 'a'.repeat(70_000) }),
  hugeArray: () => base({ tool_calls: new Array(200_000).fill({ name: 'cart.view' }) }),
  nan: (rng) =>
    base({
      tool_calls: [{ name: 'catalog.search', args: { query: 'x', top_k: rng.pick([NaN, Infinity, -Infinity]) } }],
    }),
  protoText: (rng) =>
    `{"assistant_message":"x","${rng.pick(['__proto__', 'constructor', 'prototype'])}":{"polluted":true}}`,
  protoArgs: () =>
    JSON.parse('{"assistant_message":"x","tool_calls":[{"name":"cart.view","args":{"__proto__":{"polluted":1}}}]}'),
  nonObject: (rng) =>
    rng.pick<unknown>([
      42,
      null,
      undefined,
      true,
      'null',
      '[]',
      '"text"',
      () => 1,
      Symbol('s'),
      10n,
      [base()],
      new Map(),
      new Date(0),
    ]),
  garbageText: (rng) => Array.from({ length: rng.int(0, 60) }, () => String.fromCharCode(rng.int(0, 0xffff))).join(''),
  truncatedJson: () => JSON.stringify(base({ tool_calls: [{ name: 'cart.view', args: {} }] })).slice(0, 30),
  wrongTypes: (rng) =>
    rng.pick<unknown>([
      { assistant_message: 7 },
      { assistant_message: '' },
      base({ tool_calls: { name: 'cart.view' } }),
      base({ answer: 'done' }),
      base({ answer: { env: 5, done: true } }),
      base({ answer: { env: 'PD', done: 'yes' } }),
    ]),
  badAnswer: (rng, obs) =>
    base({
      answer: rng.pick<unknown>([
        { env: obs.envId, done: true, nonsense: 1 },
        { env: obs.envId === 'PD' ? 'CART' : 'PD', done: true },
        { env: obs.envId, done: true, recommended_product_ids: [1, 2] },
        { env: obs.envId, done: true, selected_order_id: '' },
      ]),
    }),
};

/** Attacks inside tool calls or valid-looking answers: the episode goes on (or is scored). */
const CALL_LEVEL: Record<string, Hostile> = {
  unknownTool: (rng) =>
    base({
      tool_calls: [
        {
          name: rng.pick(['', 'catalog.delete', 'rm -rf', '__proto__', 'catalog_search_x', 'x'.repeat(500)]),
          args: {},
        },
      ],
    }),
  notACall: (rng) =>
    base({ tool_calls: [rng.pick<unknown>([null, 5, 'catalog.search', [], { args: {} }, { name: 7 }])] }),
  badArgs: (rng, obs) => {
    const tool = rng.pick(obs.tools).name;
    return base({
      tool_calls: [
        {
          name: tool,
          args: rng.pick<unknown>([
            null,
            [],
            'x',
            { unknown_arg: 1 },
            { query: 5 },
            { product_id: '' },
            { order_id: 'ORD-0', line_id: {} },
          ]),
        },
      ],
    });
  },
  extremeArgs: (rng) =>
    base({
      tool_calls: [
        rng.pick([
          { name: 'catalog.search', args: { query: 'a', top_k: 1e9 } },
          { name: 'catalog.search', args: { query: 'a'.repeat(5000), filters: { price_min: 1e300, price_max: 0 } } },
          {
            name: 'catalog.rerank',
            args: {
              query: 'x',
              candidate_product_ids: Array.from({ length: 500 }, (_, i) => `syn_${String(i).padStart(7, '0')}`),
            },
          },
          { name: 'order.list', args: { days: 1e9 } },
          { name: 'cart.add', args: { product_id: 'syn_0000001', quantity: 1e9 } },
          { name: 'cart.set_quantity', args: { line_id: 'L-1', quantity: -5 } },
          { name: 'policy.search', args: { query: '\u0000\uffff', top_k: 20 } },
        ]),
      ],
    }),
  manyCalls: (rng) =>
    base({ tool_calls: Array.from({ length: rng.int(2, 40) }, () => ({ name: 'datetime.now', args: {} })) }),
  unknownIdsAnswer: (rng, obs) =>
    base({
      answer: {
        env: obs.envId,
        done: rng.bernoulli(0.5),
        recommended_product_ids: ['nope', 'syn_9999999', 'syn_0000003'],
      },
    }),
};

export interface FuzzStats {
  envId: EnvId;
  actions: number;
  episodes: number;
  byKind: Record<string, number>;
  terminations: Record<string, number>;
  rewardMin: number;
  rewardMax: number;
  failures: string[];
}

/** What the store would keep of an action: its JSON text when it has one, else the value itself. */
const storable = (a: unknown) => (typeof a === 'string' || jsonDataError(a) !== null ? a : JSON.stringify(a));

/** Plays hostile episodes of one env until `actions` actions were sent; checks every promise. */
export function fuzzEnv(envId: EnvId, catalog: Catalog, actions: number, seed = 1): FuzzStats {
  const rng = Rng.from('fuzz', envId, seed);
  const stats: FuzzStats = {
    envId,
    actions: 0,
    episodes: 0,
    byKind: {},
    terminations: {},
    rewardMin: Infinity,
    rewardMax: -Infinity,
    failures: [],
  };
  const random = createRandomAgent({ seed, pInvalid: 0.2, pPartialAnswer: 0.1 });
  const fail = (msg: string) => stats.failures.length < 20 && stats.failures.push(msg);
  while (stats.actions < actions) {
    const config = { envId, d: rng.int(0, 30), seed: rng.int(0, 1e6) };
    const where = `${envId} d=${config.d} seed=${config.seed}`;
    const sent: unknown[] = [];
    let episode: Episode;
    try {
      episode = new Episode(config, catalog);
      let obs = episode.reset().observation;
      while (!episode.done && stats.actions < actions + 50) {
        const roll = rng.next();
        let kind: string;
        let action: unknown;
        if (roll < 0.1) {
          kind = rng.pick(Object.keys(ACTION_LEVEL));
          action = ACTION_LEVEL[kind](rng, obs);
        } else if (roll < 0.55) {
          kind = rng.pick(Object.keys(CALL_LEVEL));
          action = CALL_LEVEL[kind](rng, obs);
        } else {
          kind = 'random-valid';
          action = random.act(obs, episode);
        }
        stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
        stats.actions++;
        sent.push(action);
        obs = episode.step(action).observation;
      }
    } catch (e) {
      fail(`${where}: threw on action ${sent.length}: ${(e as Error).message}`);
      stats.episodes++;
      continue;
    }
    stats.episodes++;
    if (!episode.done) continue; // the action quota ran out mid-episode
    const r = episode.breakdown!.total;
    stats.terminations[episode.termination!] = (stats.terminations[episode.termination!] ?? 0) + 1;
    stats.rewardMin = Math.min(stats.rewardMin, r);
    stats.rewardMax = Math.max(stats.rewardMax, r);
    if (!(r >= -1 && r <= 0.9)) fail(`${where}: reward ${r} outside [−1, 0.9]`);
    const log = JSON.stringify(episode.events);
    if (log.includes('internal error'))
      fail(
        `${where}: a tool failed with an internal error: ${log.slice(log.indexOf('internal error'), log.indexOf('internal error') + 200)}`,
      );
    try {
      const again = replayEpisode(config, catalog, sent.map(storable) as never);
      if (JSON.stringify(again.events) !== log) fail(`${where}: replaying the stored actions gave different events`);
    } catch (e) {
      fail(`${where}: replay threw: ${(e as Error).message}`);
    }
  }
  return stats;
}
