// npm run bench:catalog [-- --sizes 10k,100k,1M,2M] [--no-minisearch]
// For each size (each in a fresh child process, so resident memory is clean):
// generation time, index build time, resident memory, disk-cache write/load
// time, search latency p50/p99 over a fixed set of 1,000 queries (half with
// filters), and separately over 500 full product titles (the slowest common query:
// many terms, most of them frequent). At 100k it also runs MiniSearch on the mixed
// queries for comparison.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSyntheticIndex,
  generateSyntheticColumns,
  syntheticCatalogFrom,
} from '../server/engine/catalog/synthetic';
import { readCatalogFile, writeSyntheticFile } from '../server/engine/catalog/catalog-file';
import { SYNTHETIC_FINGERPRINT } from '../server/engine/catalog/cache';
import { benchQueries, runMiniSearch, timeQueries, titleQueries, titleRecall } from './bench-catalog-lib';

const SEED = 1;
const MB = 1024 * 1024;

export interface SizeResult {
  size: number;
  genS: number;
  indexS: number;
  rssMB: number;
  peakMB: number;
  cacheWriteS: number;
  cacheMB: number;
  cacheLoadS: number;
  p50: number;
  p99: number;
  /** full-title queries only */
  titleP50: number;
  titleP99: number;
  titleAt10: number;
  mini?: { buildS: number; memMB: number; p50: number; p99: number; ours: { memMB: number; buildS: number } };
}

function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`bad size "${s}" (use e.g. 10k, 100k, 1M)`);
  return Math.round(Number(m[1]) * (m[2].toLowerCase() === 'k' ? 1e3 : m[2].toLowerCase() === 'm' ? 1e6 : 1));
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rss = () => process.memoryUsage().rss / MB;
const secs = (t0: number) => (performance.now() - t0) / 1000;

function child(size: number, withMini: boolean): SizeResult {
  gc();
  let t = performance.now();
  const cols = generateSyntheticColumns({ seed: SEED, size });
  const genS = secs(t);
  t = performance.now();
  const index = buildSyntheticIndex(cols);
  const indexS = secs(t);
  const catalog = syntheticCatalogFrom(cols, index);
  gc();
  const rssMB = rss();
  const peakMB = process.resourceUsage().maxRSS / 1024; // KiB → MiB, peak so far (generation + indexing)

  const queries = benchQueries(catalog, 1000);
  const { p50, p99 } = timeQueries(catalog, queries);
  const titles = timeQueries(catalog, titleQueries(catalog, 500));
  const titleAt10 = titleRecall(catalog, 500);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecom-bench-'));
  const file = path.join(dir, 'catalog.bin');
  t = performance.now();
  const bytes = writeSyntheticFile(file, cols, index, catalog.id, SYNTHETIC_FINGERPRINT);
  const cacheWriteS = secs(t);
  t = performance.now();
  const loaded = readCatalogFile(file).catalog;
  loaded.search({ query: 'warm up', topK: 1 });
  const cacheLoadS = secs(t);
  fs.rmSync(dir, { recursive: true, force: true });

  const result: SizeResult = {
    size,
    genS,
    indexS,
    rssMB,
    peakMB,
    cacheWriteS,
    cacheMB: bytes / MB,
    cacheLoadS,
    p50,
    p99,
    titleP50: titles.p50,
    titleP99: titles.p99,
    titleAt10,
  };
  if (withMini) result.mini = runMiniSearch(catalog, queries);
  return result;
}

function fmt(n: number, digits: number): string {
  return n.toFixed(digits);
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padStart(widths[c])).join('  ')).join('\n');
}

function main() {
  const args = process.argv.slice(2);
  const childAt = args.indexOf('--child');
  if (childAt >= 0) {
    const size = Number(args[childAt + 1]);
    const res = child(size, args.includes('--mini'));
    process.stdout.write(`\nRESULT ${JSON.stringify(res)}\n`);
    return;
  }
  const sizesArg =
    args.find((a) => a.startsWith('--sizes='))?.slice(8) ??
    (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1] : '10k,100k,1M,2M');
  const sizes = sizesArg.split(',').map(parseSize);
  const withMini = !args.includes('--no-minisearch');
  const self = fileURLToPath(import.meta.url);
  const results: SizeResult[] = [];
  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `catalog benchmark · seed ${SEED} · ${os.cpus().length} cores · node ${process.version} · load average ${load}`,
  );
  for (const size of sizes) {
    process.stdout.write(`  size ${size.toLocaleString()} … `);
    const extra = withMini && size === 100_000 ? ['--mini'] : [];
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', self, '--child', String(size), ...extra],
      { encoding: 'utf8', maxBuffer: 64 * MB },
    );
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (run.status !== 0 || !line) {
      console.log('failed');
      console.error(run.stderr);
      process.exit(1);
    }
    const r = JSON.parse(line.slice(7)) as SizeResult;
    results.push(r);
    console.log(
      `done (${fmt(r.genS + r.indexS, 1)} s build, p50 ${fmt(r.p50, 2)} ms, full titles p50 ${fmt(r.titleP50, 2)} ms)`,
    );
  }
  const rows = [
    [
      'size',
      'gen s',
      'index s',
      'RSS MB',
      'peak RSS MB',
      'cache MB',
      'cache write s',
      'cache load s',
      'p50 ms',
      'p99 ms',
      'title p50 ms',
      'title p99 ms',
      'title@10',
    ],
  ];
  for (const r of results) {
    rows.push([
      r.size.toLocaleString('en-US'),
      fmt(r.genS, 2),
      fmt(r.indexS, 2),
      fmt(r.rssMB, 0),
      fmt(r.peakMB, 0),
      fmt(r.cacheMB, 0),
      fmt(r.cacheWriteS, 2),
      fmt(r.cacheLoadS, 2),
      fmt(r.p50, 3),
      fmt(r.p99, 3),
      fmt(r.titleP50, 3),
      fmt(r.titleP99, 3),
      `${fmt(100 * r.titleAt10, 1)}%`,
    ]);
  }
  console.log(
    '\nsynthetic catalog: generation, index, memory, cache, search (1,000 mixed queries, half filtered; 500 full titles, top 10)',
  );
  console.log(table(rows));
  const m = results.find((r) => r.mini);
  if (m?.mini) {
    console.log(`\nat ${m.size.toLocaleString('en-US')} products, same 1,000 queries:`);
    console.log(
      table([
        ['engine', 'build s', 'memory MB', 'p50 ms', 'p99 ms'],
        [
          'this catalog (BM25 + MaxScore)',
          fmt(m.mini.ours.buildS, 2),
          fmt(m.mini.ours.memMB, 0),
          fmt(m.p50, 3),
          fmt(m.p99, 3),
        ],
        ['MiniSearch 7.2.0', fmt(m.mini.buildS, 2), fmt(m.mini.memMB, 0), fmt(m.mini.p50, 3), fmt(m.mini.p99, 3)],
      ]),
    );
    console.log('(build = index build only, ours via the generic tokenizing path used for imports;');
    console.log(' memory = the index alone: JS heap + array buffers, excluding the shared product columns)');
  }
}

main();
