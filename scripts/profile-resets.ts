// Resets only, at any catalog size: loads the cached synthetic catalog, builds the evaluation-pool
// store with a first reset, warms up, then times N resets per env by CPU time and writes a V8 CPU
// profile of them (the store build stays out of it). docs/performance.md, "Profiling recipe".
//   npx esbuild scripts/profile-resets.ts --bundle --platform=node --format=esm --outfile=/tmp/resets.mjs
//   SIZE=2000000 ENVS=PD,SUB N=300 OUT=/tmp/resets.cpuprofile node --max-old-space-size=6144 /tmp/resets.mjs
//   node scripts/cpuprofile-top.mjs /tmp/resets.cpuprofile --top 30 --under reset
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { Episode } from '../server/engine';
import type { EnvId } from '../server/engine/types';

const size = Number(process.env.SIZE ?? 2_000_000);
const envs = (process.env.ENVS ?? 'PD,SUB').split(',') as EnvId[];
const n = Number(process.env.N ?? 300);
const out = process.env.OUT ?? 'resets.cpuprofile';
const mb = () => `${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
let mark = process.cpuUsage();
const cpuSeconds = () => {
  const used = process.cpuUsage(mark);
  mark = process.cpuUsage();
  return ((used.user + used.system) / 1e6).toFixed(2);
};
const reset = (envId: EnvId, d: number, seed: number) => new Episode({ envId, d, seed }, catalog).reset();

const catalog = loadOrCreateSyntheticCatalog({ seed: 1, size }, () => {});
console.log(`catalog ${size}: ${cpuSeconds()} s CPU, RSS ${mb()}`);
reset('PD', 3, 1);
console.log(`first reset (the pool store): ${cpuSeconds()} s CPU, RSS ${mb()}`);
for (const env of envs) for (let i = 0; i < 40; i++) reset(env, [0, 3, 6, 9][i % 4], 500_000 + i);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
for (const env of envs) {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) reset(env, [0, 3, 6, 9][i % 4], 1000 + i);
  const used = process.cpuUsage(start);
  console.log(`${env.padEnd(8)} ${((used.user + used.system) / 1e3 / n).toFixed(3)} ms CPU per reset`);
}
const { profile } = await session.post('Profiler.stop');
fs.writeFileSync(out, JSON.stringify(profile));
console.log(`RSS after the resets ${mb()}; profile in ${out}`);
