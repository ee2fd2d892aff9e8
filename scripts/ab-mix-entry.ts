// The workload of an oracle-mix A/B (docs/performance.md, "Thirteenth round"): bundled once per
// version, both bundles run in one process by ab-mix.mjs. Each bundle loads its own 20k catalog: a
// catalog shared between bundles fails the second's `instanceof ColumnarCatalog` (product path, ×3.6).
// The 512 episode configs of bench:api (bench-api-lib.ts), the oracle's actions recorded once.
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { createEpisode } from '../server/engine';
import type { Catalog } from '../server/engine/catalog/types';
import { episodeConfig, recordScript, type Script } from './bench-api-lib';

let catalog: Catalog;
const configs: ReturnType<typeof episodeConfig>[] = [];
const scripts: Script[] = [];

export function setup(size: number) {
  catalog = loadOrCreateSyntheticCatalog({ seed: 1, size }, () => {});
  for (let s = 0; s < 64; s++)
    for (let n = 0; n < 8; n++) {
      configs.push(episodeConfig(s, n));
      scripts.push(recordScript(catalog, 'oracle', s, n));
    }
}

/** CPU µs per reset (steps false) or per episode (reset and the oracle's actions) over `count` configs from `offset`. */
export function pass(offset: number, count: number, steps: boolean): number {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const j = (offset + i) % configs.length;
    const episode = createEpisode(configs[j], catalog);
    episode.reset();
    if (steps) for (const action of scripts[j].actions) episode.step(JSON.parse(action));
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}
