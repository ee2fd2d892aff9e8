// npm run bench:engine [-- --catalog-size 1000 --d 0,3,6,9 --episodes 100 --runs 3 --envs PD,SUB --warmup 20]
// How fast the gym runs inside a training loop, played by the oracle: reset and step
// latency (p50/p99) and episodes per second per environment, then one total line.
// Only reset() and step() are timed (the oracle's own thinking is not): episodes/s =
// episodes / (their reset + step time). With --runs N the whole measurement repeats N
// times and every figure is the median over the runs (the machine is shared). "per CPU-s"
// divides by the process CPU time of the same calls instead of wall time: on a loaded
// machine, wall time includes waiting for a core, CPU time does not.
// Catalogs come from the disk cache (data/cache/catalogs), built on first use.

import os from 'node:os';
import { availableEnvs } from '../server/engine/envs/registry';
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { Episode, oracleAgent } from '../server/engine';
import type { Catalog } from '../server/engine/catalog/types';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1] ?? '';
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function parseCount(s: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim());
  const scale = !m || !m[2] ? 1 : m[2].toLowerCase() === 'k' ? 1e3 : 1e6;
  const v = m ? Math.round(Number(m[1]) * scale) : NaN;
  if (!(v > 0)) fail(`--${name} needs a positive whole number (e.g. 1000, 100k, 2M), got "${s}"`);
  return v;
}

function parseDs(s: string): number[] {
  const ds = s.split(',').flatMap((part) => {
    const range = /^(\d+)\.\.(\d+)$/.exec(part.trim());
    if (range) return Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i);
    return [Number(part.trim())];
  });
  if (ds.length === 0 || ds.some((d) => !Number.isInteger(d) || d < 0 || d > 12))
    fail(`--d needs a list of difficulties 0..12 (e.g. 0,3,6,9 or 0..12), got "${s}"`);
  return ds;
}

const size = parseCount(arg('catalog-size') ?? arg('size') ?? '1000', 'catalog-size');
const ds = parseDs(arg('d') ?? '0,3,6,9');
const perEnv = parseCount(arg('episodes') ?? '200', 'episodes');
const runs = parseCount(arg('runs') ?? '1', 'runs');
const warmup = arg('warmup') === '0' ? 0 : parseCount(arg('warmup') ?? '20', 'warmup');
const envFilter = arg('envs')?.split(',');
const envs = availableEnvs().filter((e) => !envFilter || envFilter.includes(e.id));
if (envs.length === 0)
  fail(
    `--envs matches no environment; available: ${availableEnvs()
      .map((e) => e.id)
      .join(', ')}`,
  );

const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

interface EnvFigures {
  episodesPerS: number;
  resetP50: number;
  resetP99: number;
  stepP50: number;
  stepP99: number;
  stepsPerEpisode: number;
  seconds: number;
  episodesPerCpuS: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function measureEnv(envId: string, catalog: Catalog, run: number): EnvFigures {
  const resets: number[] = [];
  const steps: number[] = [];
  let timed = 0;
  let cpu = 0;
  for (let i = 0; i < perEnv; i++) {
    const episode = new Episode(
      { envId: envId as Episode['config']['envId'], d: ds[i % ds.length], seed: 10_000 + run * 100_000 + i },
      catalog,
    );
    let c0 = cpuMs();
    let t0 = performance.now();
    let { observation } = episode.reset();
    let dt = performance.now() - t0;
    cpu += cpuMs() - c0;
    resets.push(dt);
    timed += dt;
    while (!episode.done) {
      const action = oracleAgent.act(observation, episode);
      c0 = cpuMs();
      t0 = performance.now();
      observation = episode.step(action).observation;
      dt = performance.now() - t0;
      cpu += cpuMs() - c0;
      steps.push(dt);
      timed += dt;
    }
  }
  const r = Float64Array.from(resets).sort();
  const s = Float64Array.from(steps).sort();
  return {
    episodesPerS: perEnv / (timed / 1000),
    resetP50: quantile(r, 0.5),
    resetP99: quantile(r, 0.99),
    stepP50: quantile(s, 0.5),
    stepP99: quantile(s, 0.99),
    stepsPerEpisode: steps.length / perEnv,
    seconds: timed / 1000,
    episodesPerCpuS: perEnv / (cpu / 1000),
  };
}

const t = performance.now();
const catalog = loadOrCreateSyntheticCatalog({ seed: 1, size }, (i) =>
  console.log(
    `catalog synthetic-s1-n${size}: ${i.source === 'cache' ? 'loaded from cache' : 'generated'} in ${i.ms.toFixed(0)} ms`,
  ),
);
catalog.search({ query: 'warm up', topK: 1 });
console.log(
  `node ${process.version}; ${os.cpus().length} cores; load average ${os.loadavg()[0].toFixed(2)}; ${perEnv} oracle episodes per env, d ${ds.join(',')}; ${warmup} warm-up episodes per env; ${runs} run(s), medians`,
);
// warm-up: JIT and the catalog's lazy per-category caches (feature bags, idf tables), not
// counted; a long --warmup measures the steady state of a long training run
for (const env of envs)
  for (let i = 0; i < warmup; i++) {
    const episode = new Episode({ envId: env.id, d: ds[i % ds.length], seed: 1_000_000 + i }, catalog);
    let { observation } = episode.reset();
    while (!episode.done) observation = episode.step(oracleAgent.act(observation, episode)).observation;
  }

const perRun: Map<string, EnvFigures>[] = [];
const totals: number[] = [];
const cpuTotals: number[] = [];
for (let run = 0; run < runs; run++) {
  const figures = new Map<string, EnvFigures>();
  for (const env of envs) figures.set(env.id, measureEnv(env.id, catalog, run));
  perRun.push(figures);
  const seconds = [...figures.values()].reduce((a, f) => a + f.seconds, 0);
  totals.push((perEnv * envs.length) / seconds);
  cpuTotals.push((perEnv * envs.length) / [...figures.values()].reduce((a, f) => a + perEnv / f.episodesPerCpuS, 0));
}

const ms = (x: number) => `${x.toFixed(3)} ms`.padStart(11);
console.log('\nenv      episodes/s   reset p50   reset p99    step p50    step p99   steps/episode   per CPU-s');
for (const env of envs) {
  const m = (key: keyof EnvFigures) => median(perRun.map((f) => f.get(env.id)![key]));
  console.log(
    `${env.id.padEnd(8)} ${m('episodesPerS').toFixed(0).padStart(10)}  ${ms(m('resetP50'))} ${ms(m('resetP99'))} ${ms(m('stepP50'))} ${ms(m('stepP99'))}   ${m('stepsPerEpisode').toFixed(1).padStart(6)}   ${m('episodesPerCpuS').toFixed(0).padStart(9)}`,
  );
}
const slowest = Math.min(...envs.map((e) => median(perRun.map((f) => f.get(e.id)!.episodesPerS))));
console.log(
  `\nTOTAL catalog ${size.toLocaleString('en-US')} · d ${ds.join(',')} · ${median(totals).toFixed(0)} episodes/s overall (runs: ${totals.map((x) => x.toFixed(0)).join(', ')}) · ${median(cpuTotals).toFixed(0)} per CPU-second · slowest env ${slowest.toFixed(0)} episodes/s · wall ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
