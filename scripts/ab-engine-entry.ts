// The workload of an A/B comparison of two engine versions (docs/performance.md, "Comparing two
// versions"): bundled once per version, both bundles run in one process by ab-engine.mjs.
// Oracle episodes over every env (or a subset); only reset() and step() are timed.
import { availableEnvs } from '../server/engine/envs/registry';
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { Episode, oracleAgent } from '../server/engine';
import type { Catalog } from '../server/engine/catalog/types';

let catalog: Catalog;

export function setup(size: number) {
  catalog = loadOrCreateSyntheticCatalog({ seed: 1, size }, () => {});
}

/**
 * The clock: wall time, or with AB_CLOCK=cpu the process's CPU time (process.cpuUsage, ~1 µs per
 * read, the same for both sides), which a busy machine stretches less than wall time.
 */
const now =
  process.env.AB_CLOCK === 'cpu'
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();

/** AB_PART=step times step() only (a step-path change is diluted by resets in the whole episode). */
const timeReset = process.env.AB_PART !== 'step';

/** Plays n episodes per env (d 0/3/6/9 in turn, seeds from seedBase); returns the ms spent in reset + step. */
export function run(n: number, seedBase: number, envIds?: string[]): number {
  let ms = 0;
  for (const env of availableEnvs()) {
    if (envIds && !envIds.includes(env.id)) continue;
    for (let i = 0; i < n; i++) {
      const episode = new Episode({ envId: env.id, d: [0, 3, 6, 9][i % 4], seed: seedBase + i }, catalog);
      let t0 = now();
      let { observation } = episode.reset();
      if (timeReset) ms += now() - t0;
      while (!episode.done) {
        const action = oracleAgent.act(observation, episode);
        t0 = now();
        observation = episode.step(action).observation;
        ms += now() - t0;
      }
    }
  }
  return ms;
}
