// node --single-threaded scripts/ab-mix.mjs A.mjs B.mjs [rounds 201] [per round 64]   (AB_PART=episode: reset + steps)
// Paired, interleaved A/B of bench:api's oracle mix in ONE process (bundles of scripts/ab-mix-entry.ts,
// AB_SIZE products, 20,000 by default): median CPU µs per reset (or episode) of each and the median
// per-round ratio B/A. The bundle loaded second runs slower (A/A: 1.05): run it twice with A and B
// swapped and quote sqrt(r1 / r2) (docs/performance.md, "Thirteenth round").
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
const ta = [];
const tb = [];
const ratios = [];
for (let r = 0; r < rounds; r++) {
  const offset = r * count;
  const [x, y] =
    r % 2
      ? [b.pass(offset, count, steps), a.pass(offset, count, steps)].reverse()
      : [a.pass(offset, count, steps), b.pass(offset, count, steps)];
  ta.push(x);
  tb.push(y);
  ratios.push(y / x);
}
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
const what = steps ? 'episode' : 'reset';
console.log(
  `A ${median(ta).toFixed(1)} µs · B ${median(tb).toFixed(1)} µs per ${what} (CPU) · B/A paired median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
);
