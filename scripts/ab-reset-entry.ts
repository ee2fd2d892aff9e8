// The workload of a resets-only A/B (docs/performance.md, "Comparing two versions"): bundled once
// per version, both bundles run in one process by ab-reset.mjs. Times `new Episode(...).reset()`
// by the process's CPU time (d 0/3/6/9 in turn, seeds from seedBase).
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { Episode } from '../server/engine';
import type { Catalog } from '../server/engine/catalog/types';
import type { EnvId } from '../server/engine/types';

let catalog: Catalog;

export function setup(size: number) {
  catalog = loadOrCreateSyntheticCatalog({ seed: 1, size }, () => {});
}

/** CPU µs per reset over n resets of one env. */
export function resets(envId: EnvId, n: number, seedBase: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) new Episode({ envId, d: [0, 3, 6, 9][i % 4], seed: seedBase + i }, catalog).reset();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}
