// npm run bench:engine [-- --size 20000 --episodes 200]
// How fast the gym runs inside a training loop: reset and step latency (p50/p99) and
// episodes per second per environment, played by the oracle (which calls tools every turn).

import { availableEnvs } from '../server/engine/envs/registry';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { Episode, oracleAgent } from '../server/engine';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`--${name} needs a positive number, got "${process.argv[i + 1] ?? ''}"`);
    process.exit(2);
  }
  return v;
}

const size = flag('size', 20_000);
const perEnv = flag('episodes', 200);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

let t = performance.now();
const catalog = createSyntheticCatalog({ seed: 1, size });
console.log(`catalog ${catalog.id}: built in ${(performance.now() - t).toFixed(0)} ms`);
console.log(`node ${process.version}; ${perEnv} oracle episodes per env, d cycling 0..12\n`);
console.log('env      episodes/s   reset p50   reset p99    step p50    step p99   steps/episode');

for (const env of availableEnvs()) {
  const resets: number[] = [];
  const steps: number[] = [];
  t = performance.now();
  for (let i = 0; i < perEnv; i++) {
    const episode = new Episode({ envId: env.id, d: i % 13, seed: 10_000 + i }, catalog);
    let t0 = performance.now();
    let { observation } = episode.reset();
    resets.push(performance.now() - t0);
    while (!episode.done) {
      const action = oracleAgent.act(observation, episode);
      t0 = performance.now();
      observation = episode.step(action).observation;
      steps.push(performance.now() - t0);
    }
  }
  const seconds = (performance.now() - t) / 1000;
  const ms = (x: number) => `${x.toFixed(3)} ms`.padStart(11);
  console.log(
    `${env.id.padEnd(8)} ${(perEnv / seconds).toFixed(0).padStart(10)}  ${ms(quantile(resets, 0.5))} ${ms(quantile(resets, 0.99))} ${ms(quantile(steps, 0.5))} ${ms(quantile(steps, 0.99))}   ${(steps.length / perEnv).toFixed(1).padStart(6)}`,
  );
}
