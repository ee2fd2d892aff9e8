// node scripts/ab-reset.mjs A.mjs B.mjs [ENV,ENV] [rounds] [resets per round]   (AB_SIZE=100000 for 100k)
// Paired, interleaved A/B of the resets of two bundles of scripts/ab-reset-entry.ts in ONE process,
// per env: median CPU µs per reset of each and the median per-round ratio B/A. The bundle loaded
// second runs slower (an A/A run gave 1.46): run it twice with A and B swapped and quote
// sqrt(r1 / r2) (docs/performance.md, "Comparing two versions").
import { median, pairedRounds } from './ab-paired.mjs';

const [a, b] = await Promise.all([import(process.argv[2]), import(process.argv[3])]);
const envs = (process.argv[4] ?? 'PD,SUB,CART,RETURN,STATUS,POLICY,BUNDLE,JOURNEY').split(',');
const rounds = Number(process.argv[5] ?? 15);
const n = Number(process.argv[6] ?? 40);
const size = Number(process.env.AB_SIZE ?? 1000);
a.setup(size);
b.setup(size);
for (const env of envs) {
  a.resets(env, 100, 1e6); // warm-up: JIT, per-catalog stores
  b.resets(env, 100, 1e6);
}
for (const env of envs) {
  const { ta, tb, ratios } = pairedRounds(rounds, (v, r) => (v === 'a' ? a : b).resets(env, n, 1000 + r * n));
  console.log(
    `${env.padEnd(8)} A ${median(ta).toFixed(1)} µs · B ${median(tb).toFixed(1)} µs per reset (CPU) · B/A paired median ${median(ratios).toFixed(3)}`,
  );
}
