// The hidden goal's summary is read after every step (the trainer recorder keeps the stored
// goal current, issue 10), and in PD/SUB/RETURN it scores the whole evaluation pool for the
// ideal list: 5–30 µs a call. Most summaries depend on the goal and the world's stock only, so
// they are kept per goal and built again only when the stock changed (issue 13, ninth round).
// STATUS's and POLICY's summaries read no stock; they are kept here too so that their lines come
// back frozen, which JOURNEY's own cache of its sub-tasks' lines relies on (a frozen list = kept).

import type { Catalog } from '../../catalog/types';
import { stockVersion } from '../../world/stock';
import type { WorldState } from '../../world/state';
import type { EnvContext } from '../types';

interface Kept {
  world: WorldState;
  catalog: Catalog;
  version: number;
  lines: string[];
}

/**
 * A summarizer whose lines are a function of (goal, the world's stock, the catalog): the lines
 * are kept per goal object and handed out frozen (Episode.hiddenGoal copies them).
 */
export function summaryByStock<G extends object>(
  build: (goal: G, ctx: EnvContext) => string[],
): (goal: G, ctx: EnvContext) => string[] {
  const kept = new WeakMap<G, Kept>();
  return (goal, ctx) => {
    const version = stockVersion(ctx.world);
    const hit = kept.get(goal);
    if (hit !== undefined && hit.world === ctx.world && hit.catalog === ctx.catalog && hit.version === version)
      return hit.lines;
    const lines = Object.freeze(build(goal, ctx)) as string[];
    kept.set(goal, { world: ctx.world, catalog: ctx.catalog, version, lines });
    return lines;
  };
}
