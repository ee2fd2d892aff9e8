// node --single-threaded scripts/ab-mix.mjs A.mjs B.mjs [rounds 201] [per round 64]   (AB_PART=episode: reset + steps)
// Bundle each version with (the banner gives the bundle a require for the ws client's CommonJS):
//   npx esbuild scripts/ab-mix-entry.ts --bundle --platform=node --format=esm --outfile=/tmp/ab/new.mjs \
//     --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);"
// Paired, interleaved A/B of bench:api's oracle mix in ONE process (bundles of scripts/ab-mix-entry.ts,
// AB_SIZE products, 20,000 by default): median CPU µs per reset (or episode) of each and the median
// per-round ratio B/A. The bundle loaded second runs slower (A/A: 1.05): run it twice with A and B
// swapped and quote sqrt(r1 / r2) (docs/performance.md, "Thirteenth round").
import { median, pairedRounds } from './ab-paired.mjs';

const a = await import(process.argv[2]);
const b = await import(process.argv[3]);
const rounds = Number(process.argv[4] ?? 201);
const count = Number(process.argv[5] ?? 64);
const steps = process.env.AB_PART === 'episode';
const size = Number(process.env.AB_SIZE ?? 20000);
a.setup(size);
b.setup(size);
for (let i = 0; i < 10; i++) {
  a.pass(0, 512, steps); // warm-up: JIT, per-catalog stores
  b.pass(0, 512, steps);
}
const { ta, tb, ratios } = pairedRounds(rounds, (v, r) => (v === 'a' ? a : b).pass(r * count, count, steps));
const what = steps ? 'episode' : 'reset';
console.log(
  `A ${median(ta).toFixed(1)} µs · B ${median(tb).toFixed(1)} µs per ${what} (CPU) · B/A paired median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
);
