// node scripts/ab-engine.mjs A.mjs B.mjs [rounds] [episodes per env] [ENV,ENV]   (AB_SIZE=100000 for 100k; AB_PART=step: step() time only)
// Paired, interleaved A/B of two bundles of scripts/ab-engine-entry.ts in ONE process: each round
// plays the same seeds on both (order alternating), so both see the same machine load. Prints
// the median engine time of each and the median of the per-round ratios B/A (the figure to quote
// on a shared machine). Recipe: docs/performance.md, "Comparing two versions".
import { median, pairedRounds } from './ab-paired.mjs';

const [a, b] = await Promise.all([import(process.argv[2]), import(process.argv[3])]);
const rounds = Number(process.argv[4] ?? 15);
const n = Number(process.argv[5] ?? 20);
const envs = process.argv[6] ? process.argv[6].split(',') : undefined;
const size = Number(process.env.AB_SIZE ?? 1000);
a.setup(size);
b.setup(size);
a.run(20, 1e6, envs); // warm-up: JIT and lazy caches
b.run(20, 1e6, envs);
const { ta, tb, ratios } = pairedRounds(rounds, (v, r) => (v === 'a' ? a : b).run(n, 10_000 + r * 1000, envs));
const eps = (ms) => ((n * (envs?.length ?? 8)) / (ms / 1000)).toFixed(0);
console.log(
  `A median ${median(ta).toFixed(1)} ms (${eps(median(ta))} episodes/s) · B median ${median(tb).toFixed(1)} ms (${eps(median(tb))} episodes/s) · B/A paired median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})`,
);
