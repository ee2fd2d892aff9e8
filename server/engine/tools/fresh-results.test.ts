// A tool marked freshResult has its result frozen in place and shared by the event log and the
// observation, uncopied (issue 13), which is only safe if the result is new on every call: an
// object of it that the world, the catalog's products or an earlier result also hold must already
// be frozen (a cache's, like a cached product's attrs), or the episode would freeze what it does
// not own. Checked when each tool returns, before the episode freezes anything, over real episodes
// of every env (oracle, heuristic and random agents, which reach most tools); and the detector is
// checked on a result that does share a world object.

import { afterEach, describe, expect, it } from 'vitest';
import { Episode } from '../episode';
import { createRandomAgent, heuristicAgent, oracleAgent } from '../index';
import { listEnvs } from '../envs/registry';
import { testCatalog } from '../testing';
import type { Agent } from '../agents/types';
import type { WorldState } from '../world/state';
import { ALL_TOOLS, findTool } from './index';
import type { ToolContext, ToolDef } from './registry';

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

/** The objects of a result, not frozen, that the world, the catalog products it names or an earlier result hold. */
function sharedUnfrozen(result: unknown, world: WorldState, earlier: Set<object>): object[] {
  const theirs = reachable([world, ...productIds(result).map((id) => catalog.get(id))]);
  return [...reachable([result])].filter((o) => (theirs.has(o) || earlier.has(o)) && !Object.isFrozen(o));
}

/** Every object of a value is frozen. */
const allFrozen = (value: unknown) => [...reachable([value])].every((o) => Object.isFrozen(o));

const agents: Agent[] = [oracleAgent, heuristicAgent, createRandomAgent({ seed: 5, pInvalid: 0.1 })];

type Run = ToolDef['run'];
const originalRuns = new Map<ToolDef, Run>(ALL_TOOLS.map((t) => [t, t.run]));
afterEach(() => {
  for (const [tool, run] of originalRuns) tool.run = run;
});

describe('freshResult tools', () => {
  it('every tool promises a fresh result', () => {
    expect(ALL_TOOLS.filter((t) => !t.freshResult).map((t) => t.name)).toEqual([]);
  });

  it('share no unfrozen object with the world, the catalog or earlier results; log and observation share them frozen', () => {
    const checked = new Map<string, number>();
    let earlier = new Set<object>();
    // each tool's result is checked as it returns, before the episode freezes anything
    for (const [tool, run] of originalRuns)
      tool.run = (args: never, ctx: ToolContext) => {
        const result = run(args, ctx);
        expect(sharedUnfrozen(result, ctx.world, earlier), tool.name).toEqual([]);
        reachable([result], earlier);
        checked.set(tool.name, (checked.get(tool.name) ?? 0) + 1);
        return result;
      };
    for (const env of listEnvs())
      for (const agent of agents) {
        const episode = new Episode({ envId: env.id, d: 4, seed: 1 }, catalog);
        let { observation } = episode.reset();
        earlier = new Set<object>();
        while (!episode.done) {
          const step = episode.step(agent.act(observation, episode));
          observation = step.observation;
          const logged = step.events.filter((e) => e.kind === 'tool_call');
          expect(observation.toolResults).toHaveLength(logged.length);
          observation.toolResults.forEach((r, i) => {
            expect(r.result, `${env.id} ${r.name}: the logged value, not a copy`).toBe(logged[i].result);
            expect(r.args).toBe(logged[i].args);
            expect(allFrozen(r.result) && allFrozen(r.args), `${env.id} ${r.name}`).toBe(true);
          });
        }
      }
    // the episodes did reach the frequent tools, the two that show catalog objects among them
    for (const name of [
      'catalog.search',
      'catalog.get_product',
      'catalog.get_variants',
      'order.list',
      'order.get_status',
      'policy.search',
      'cart.add',
    ])
      expect(checked.get(name) ?? 0, name).toBeGreaterThan(0);
  });

  it('the check finds a result that holds a world object (order.list without its copies)', () => {
    const episode = new Episode({ envId: 'STATUS', d: 2, seed: 3 }, catalog);
    episode.reset();
    const world = (episode as unknown as { state: WorldState }).state;
    const run = findTool('order.list')!.run;
    const ctx = { catalog, world, axes: episode.axes, turn: 1, rng: undefined as never };
    const own = run({ days: 365 }, ctx) as { addresses: unknown };
    expect(sharedUnfrozen(own, world, new Set())).toEqual([]);
    const leaky = { ...own, addresses: world.addresses };
    expect(sharedUnfrozen(leaky, world, new Set())).toContain(world.addresses);
    expect(sharedUnfrozen({ again: own.addresses }, world, reachable([own]))).toContain(own.addresses);
  });
});
