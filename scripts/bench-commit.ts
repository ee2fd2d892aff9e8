// npm run bench:commit [-- --episodes 1024 --sizes 1,4,8,16,32,64 --passes 3]
// What one group commit of the trainer's SQLite writer costs, split into a part per commit and a
// part per operation: the resets and steps of `--episodes` oracle episodes, in the order a server
// with 64 sessions produces them (64 episodes at a time, turn by turn), are written by the writer
// (serve:env's statements, checkpoints off) into a fresh store in batches of each `--sizes`
// operations. Printed per size: WAL pages appended per operation and per commit (a count: the
// WAL's growth, deterministic) and the writer's CPU per 1,000 steps (process.cpuUsage, median).
// The fit of pages = perCommit + perOp × size says what a commit window can save at a batch size.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { createEnvService } from '../server/env-server/protocol';
import { SessionStore } from '../server/env-server/sessions';
import { createTokenService } from '../server/env-server/tokens';
import { Recorder, type RecordOp } from '../server/env-server/recorder';
import { openSqliteWriter } from '../server/env-server/sqlite-writer';
import { migratedTempDatabase } from '../server/env-server/spawn';
import { sqliteFile } from '../server/db-path';
import { median, recordScript } from './bench-api-lib';
import { benchOptions, positive, text } from './bench-options';

const options = benchOptions('npm run bench:commit [-- options]', {
  episodes: positive(1024, 'oracle episodes recorded', true),
  sizes: text('1,4,8,16,32,64', 'operations per commit, comma-separated'),
  passes: positive(3, 'passes (medians over them)', true),
});
const sizes = options.sizes.split(',').map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--sizes: "${s}" is not a whole number ≥ 1`);
  return n;
});

const catalog = getCatalog(DEFAULT_CATALOG_ID);
const scripts = Array.from({ length: options.episodes }, (_, i) => recordScript(catalog, 'oracle', i % 64, i >> 6));
const steps = scripts.reduce((n, s) => n + s.actions.length, 0);

/** The recorder's operations, captured in the order 64 concurrent sessions produce them. */
async function recordedOps(): Promise<RecordOp[]> {
  const ops: RecordOp[] = [];
  const svc = createEnvService({
    config: loadConfig({}, ['--max-sessions', '100000', '--persist', 'on'], DEFAULT_CATALOG_ID),
    catalog,
    tokens: createTokenService({ secret: 'bench' }),
    sessions: new SessionStore({ maxSessions: 100_000, idleTimeoutMs: 3_600_000, evictRunning: false }),
    recorder: new Recorder({ write: (batch) => void ops.push(...batch) }),
  });
  for (let g = 0; g < scripts.length; g += 64) {
    const group = scripts.slice(g, g + 64);
    const lives = group.map((s) => svc.reset(JSON.parse(s.reset)));
    await Promise.all(lives.map((l) => svc.durable(l.response)));
    for (let t = 0; ; t++) {
      const live = group.flatMap((s, i) => (t < s.actions.length ? [[i, s.actions[t]] as const] : []));
      if (live.length === 0) break;
      await Promise.all(live.map(([i, a]) => svc.durable(svc.stepLive(lives[i].live, JSON.parse(a)))));
    }
    for (const l of lives) svc.sessions.drop(l.live.id);
  }
  return ops;
}

const ops = await recordedOps();
const WARM = 64; // the first operations prepare the statements and are not counted
const counted = ops.length - WARM;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const rows = new Map<number, { cpu: number[]; pagesPerOp: number; pagesPerCommit: number }>();
for (let p = 0; p < options.passes; p++)
  for (const size of sizes) {
    const db = migratedTempDatabase();
    const wal = `${sqliteFile(db.url)!}-wal`;
    const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
    writer.write(ops.slice(0, WARM));
    const walBefore = statSync(wal).size;
    const t = process.cpuUsage();
    for (let i = WARM; i < ops.length; i += size) writer.write(ops.slice(i, i + size));
    const cpu = (cpuMs(process.cpuUsage(t)) / steps) * 1000;
    const pageSize = new Database(sqliteFile(db.url)!, { readonly: true }).pragma('page_size', {
      simple: true,
    }) as number;
    const pages = (statSync(wal).size - walBefore) / (pageSize + 24); // a WAL frame: 24-byte header + page
    writer.close();
    db.remove();
    const row = rows.get(size) ?? { cpu: [], pagesPerOp: 0, pagesPerCommit: 0 };
    row.cpu.push(cpu);
    row.pagesPerOp = pages / counted;
    row.pagesPerCommit = pages / Math.ceil(counted / size);
    rows.set(size, row);
  }

console.log(
  `${options.episodes} oracle episodes: ${steps} steps + ${options.episodes} resets = ${ops.length} operations; median of ${options.passes}`,
);
console.log('ops/commit  WAL pages/op  WAL pages/commit  writer CPU ms per 1k steps');
for (const [size, r] of rows)
  console.log(
    `${String(size).padStart(10)}  ${r.pagesPerOp.toFixed(2).padStart(12)}  ${r.pagesPerCommit.toFixed(1).padStart(16)}  ${median(r.cpu).toFixed(0).padStart(8)}`,
  );
// least squares of pages per commit against the batch size: a fixed part and a part per operation
const xs = [...rows.keys()];
const ys = xs.map((x) => rows.get(x)!.pagesPerCommit);
const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
const my = ys.reduce((a, b) => a + b, 0) / ys.length;
const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
console.log(`fit: pages per commit ≈ ${(my - slope * mx).toFixed(1)} + ${slope.toFixed(2)} × operations`);
