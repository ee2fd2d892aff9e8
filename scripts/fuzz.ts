// npm run fuzz [-- --actions 10000 --seed 1 --envs PD,CART]
// Sends hostile and random actions to every env (server/engine/testing/fuzz.ts) and prints, per
// env: actions, episodes, failures (throws, rewards outside [−1, 0.9], replay differences,
// internal tool errors), the reward range and how episodes ended. Exits 1 on any failure.
import { parseArgs } from 'node:util';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { fuzzEnv } from '../server/engine/testing/fuzz';
import { ENV_IDS, type EnvId } from '../server/engine/types';

const { values } = parseArgs({
  options: {
    actions: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    envs: { type: 'string', default: 'all' },
  },
});
const actions = Number(values.actions);
const seed = Number(values.seed);
if (!Number.isInteger(actions) || actions < 1 || !Number.isInteger(seed)) {
  process.stderr.write(
    `fuzz: --actions must be a positive integer and --seed an integer (got ${values.actions}, ${values.seed})\n`,
  );
  process.exit(2);
}
const envs =
  values.envs === 'all' ? [...ENV_IDS] : (values.envs!.split(',').map((e) => e.trim().toUpperCase()) as EnvId[]);
const unknown = envs.filter((e) => !ENV_IDS.includes(e));
if (unknown.length) {
  process.stderr.write(`fuzz: unknown env(s) ${unknown.join(', ')}; envs are ${ENV_IDS.join(', ')}\n`);
  process.exit(2);
}
const catalog = createSyntheticCatalog({ seed: 1, size: 20_000 });
console.log(`fuzz: ${actions} actions per env, seed ${seed}, catalog ${catalog.id}`);
console.log('env       actions  episodes  failures  reward min..max   terminations');
let failures = 0;
for (const env of envs) {
  const t0 = performance.now();
  const s = fuzzEnv(env, catalog, actions, seed);
  failures += s.failures.length;
  const ends = Object.entries(s.terminations)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `${env.padEnd(8)} ${String(s.actions).padStart(8)}  ${String(s.episodes).padStart(8)}  ${String(s.failures.length).padStart(8)}  ${s.rewardMin.toFixed(2).padStart(6)}..${s.rewardMax.toFixed(2).padEnd(6)}   ${ends}  (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  for (const f of s.failures) console.log(`  ✗ ${f}`);
}
console.log(failures === 0 ? 'fuzz: no failures' : `fuzz: ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
