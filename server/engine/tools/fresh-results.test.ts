// A tool marked freshResult has its result frozen in place and shared by the event log and the
// observation, uncopied (issue 13), which is only safe if the result is new on every call: no
// object of it may be reachable from the world, the catalog's products or any earlier result
// (freezing such an object would freeze the world). Checked over real episodes of every env
// (oracle, heuristic and random agents, which reach most tools), and the detector is checked on a
// tool that is not fresh (catalog.get_product shows the catalog's own attrs, so it is copied).

import { describe, expect, it } from 'vitest';
import { Episode } from '../episode';
import { createRandomAgent, heuristicAgent, oracleAgent } from '../index';
import { listEnvs } from '../envs/registry';
import { act, testCatalog } from '../testing';
import type { Agent } from '../agents/types';
import { findTool } from './index';

const catalog = testCatalog();

/** Every object reachable from the given roots (catalog products' lazy text included). */
function reachable(roots: unknown[], into = new Set<object>()): Set<object> {
  const stack = [...roots];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || into.has(v)) continue;
    into.add(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof Set) for (const x of v) stack.push(x);
    else for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return into;
}

/** The product ids among a value's strings. */
function productIds(value: unknown): string[] {
  const ids: string[] = [];
  JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string' && catalog.get(v)) ids.push(v);
    return v;
  });
  return ids;
}

/** What the episode holds now besides the log: its world and the catalog products the results name. */
const held = (episode: Episode, results: unknown[]) =>
  reachable([(episode as unknown as { state: unknown }).state, ...productIds(results).map((id) => catalog.get(id))]);

/** Every object of a value is frozen. */
const allFrozen = (value: unknown) => [...reachable([value])].every((o) => Object.isFrozen(o));

/** The objects of a result that the episode, the catalog or an earlier result also hold. */
const shared = (result: unknown, theirs: Set<object>, earlier: Set<object>) =>
  [...reachable([result])].filter((o) => theirs.has(o) || earlier.has(o));

const agents: Agent[] = [oracleAgent, heuristicAgent, createRandomAgent({ seed: 5, pInvalid: 0.1 })];

describe('freshResult tools', () => {
  it('give results that share no object with the world, the catalog or earlier results; log and observation share them frozen', () => {
    const checked = new Map<string, number>();
    for (const env of listEnvs())
      for (const agent of agents)
        for (const seed of [1]) {
          const episode = new Episode({ envId: env.id, d: 4, seed }, catalog);
          let { observation } = episode.reset();
          const earlier = new Set<object>();
          while (!episode.done) {
            const { observation: next, events } = episode.step(agent.act(observation, episode));
            observation = next;
            const logged = events.filter((e) => e.kind === 'tool_call');
            expect(observation.toolResults.map((r) => r.result)).toEqual(logged.map((e) => e.result));
            observation.toolResults.forEach((r, i) => {
              expect(r.result, `${env.id} ${r.name}: the logged value, not a copy`).toBe(logged[i].result);
              expect(r.args).toBe(logged[i].args);
              expect(allFrozen(r.result) && allFrozen(r.args), `${env.id} ${r.name}`).toBe(true);
            });
            const fresh = observation.toolResults.filter((r) => r.error === null && findTool(r.name)?.freshResult);
            if (fresh.length === 0) continue;
            const theirs = held(
              episode,
              fresh.map((r) => r.result),
            );
            for (const r of fresh) {
              expect(shared(r.result, theirs, earlier), `${env.id} ${r.name}`).toEqual([]);
              reachable([r.result], earlier);
              checked.set(r.name, (checked.get(r.name) ?? 0) + 1);
            }
          }
        }
    // the episodes did reach the frequent fresh tools
    for (const name of ['catalog.search', 'order.list', 'order.get_status', 'policy.search', 'cart.add'])
      expect(checked.get(name) ?? 0, name).toBeGreaterThan(0);
  });

  it('the check finds what a tool that is not fresh shares (get_product: the catalog product attrs)', () => {
    const episode = new Episode({ envId: 'PD', d: 2, seed: 3 }, catalog);
    episode.reset();
    const id = catalog.search({ query: 'charger', topK: 1 })[0].productId;
    const r = episode.step(act({ tool_calls: [{ name: 'catalog.get_product', args: { product_id: id } }] }));
    expect(findTool('catalog.get_product')?.freshResult).toBeUndefined();
    // the logged copy (the observation shows it) shares nothing; the tool's own result (run again) holds the catalog's attrs
    const result = r.observation.toolResults[0].result;
    expect(result).toBe((r.events.find((e) => e.kind === 'tool_call') as { result: unknown }).result);
    expect(allFrozen(result)).toBe(true);
    expect(shared(result, held(episode, [result]), new Set())).toEqual([]);
    const own = findTool('catalog.get_product')!.run(
      { product_id: id },
      {
        catalog,
        world: (episode as unknown as { state: never }).state,
        axes: episode.axes,
        turn: 1,
        rng: undefined as never,
      },
    );
    expect(shared(own, held(episode, [own]), new Set()).length).toBeGreaterThan(0);
  });
});
