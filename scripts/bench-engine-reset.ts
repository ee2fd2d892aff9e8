// npx tsx scripts/bench-engine-reset.ts [-- --resets 800 --warmup 400 --envs PD,SUB]
// What a served session pays in the engine (bench:sessions' workload): per env, the CPU time of
// reset() and of one chat step (an assistant message, no tools) at d = 3 on the default catalog
// (synthetic-s1-n20000), each followed by hiddenGoal() as the recorder reads it. Envs take turns
// (as a server's sessions do) after a warm-up; CPU time, not wall time: the machine is shared.
import { availableEnvs } from '../server/engine/envs/registry';
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { prepareEvaluationPools } from '../server/engine/envs/shared/recommend';
import { Episode } from '../server/engine';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!(Number.isInteger(v) && v >= 0)) throw new Error(`--${name} needs a whole number`);
  return v;
};
const resets = arg('resets', 800);
const warmup = arg('warmup', 400);
const only = process.argv.includes('--envs') ? process.argv[process.argv.indexOf('--envs') + 1].split(',') : null;
const envs = availableEnvs().filter((e) => !only || only.includes(e.id));
const catalog = loadOrCreateSyntheticCatalog({ seed: 1, size: 20_000 });
prepareEvaluationPools(catalog); // serve:env builds them when it loads the catalog
const chat = {
  assistant_message: 'Could you tell me a little more about what you need?',
  tool_calls: [],
  answer: null,
};
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const sums = envs.map(() => ({ reset: 0, goal: 0, step: 0, steps: 0 }));
for (let i = 0; i < warmup + resets; i++)
  envs.forEach((env, j) => {
    const e = new Episode({ envId: env.id, d: 3, seed: (i < warmup ? 5_000_000 : 1000) + i }, catalog);
    const sum = i < warmup ? { reset: 0, goal: 0, step: 0, steps: 0 } : sums[j];
    let c = cpu();
    e.reset();
    sum.reset += cpu() - c;
    c = cpu();
    e.hiddenGoal();
    sum.goal += cpu() - c;
    if (e.done) return;
    c = cpu();
    e.step(chat);
    e.hiddenGoal();
    sum.step += cpu() - c;
    sum.steps++;
  });
const us = (x: number) => x.toFixed(0).padStart(6);
console.log(`CPU µs per call, d 3, synthetic-s1-n20000, ${resets} per env after ${warmup} warm-up`);
console.log('env        reset  goal  chat step');
envs.forEach((env, j) => {
  const s = sums[j];
  console.log(`${env.id.padEnd(8)} ${us(s.reset / resets)} ${us(s.goal / resets)} ${us(s.step / s.steps)}`);
});
const mean = (f: (s: (typeof sums)[number]) => number) => sums.reduce((a, s) => a + f(s), 0) / envs.length;
console.log(
  `MEAN     ${us(mean((s) => s.reset / resets))} ${us(mean((s) => s.goal / resets))} ${us(mean((s) => s.step / s.steps))}`,
);
