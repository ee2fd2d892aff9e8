// npm run bench:persist:wal [-- --episodes 256 --batch 32 --rounds 24]
// What the trainer writer's transactions write, on a store that grows as serve:env's does:
// `--rounds` times, `--episodes` oracle episodes are played through the env service (persistence
// on, the SQLite writer inline, `--batch` episodes' operations per group commit) into ONE
// database, with serve:env's upkeep (search catch-up + checkpoint) after each round. Printed per
// 1,000 steps, over the second half of the rounds (the store already holds the first half):
// WAL bytes and pages the commits appended (deterministic: a count, not a time, so it compares
// across machines and loads) and the writer's CPU (process.cpuUsage around each write; median
// of the rounds), and the upkeep's CPU.
import { readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { createEnvService } from '../server/env-server/protocol';
import { SessionStore } from '../server/env-server/sessions';
import { createTokenService } from '../server/env-server/tokens';
import { Recorder, type BatchWriter } from '../server/env-server/recorder';
import { openSqliteWriter } from '../server/env-server/sqlite-writer';
import { migratedTempDatabase } from '../server/env-server/spawn';
import { sqliteFile } from '../server/db-path';
import { prepareTextIndex } from '../server/episodes/sqlite-store/text-index';
import { median, recordScript, type Script } from './bench-api-lib';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = Number(i < 0 ? fallback : process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) {
    console.error(`--${name} needs a positive whole number`);
    process.exit(2);
  }
  return v;
}
const episodes = option('episodes', 256);
const batch = option('batch', 32);
const rounds = option('rounds', 24);

const catalog = getCatalog(DEFAULT_CATALOG_ID);
const scripts: Script[] = Array.from({ length: episodes }, (_, i) => recordScript(catalog, 'oracle', i % 64, i >> 6));
const steps = scripts.reduce((n, s) => n + s.actions.length, 0);
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const db = migratedTempDatabase();
const file = sqliteFile(db.url)!;
const inner = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
const spent = { write: 0 };
const writer: BatchWriter = {
  write(ops) {
    const t = process.cpuUsage();
    inner.write(ops);
    spent.write += cpuMs(process.cpuUsage(t));
  },
};
// serve:env's upkeep thread: its own connection, catch-up then a passive checkpoint.
const upkeepDb = new Database(file);
upkeepDb.pragma('busy_timeout = 5000');
const index = prepareTextIndex(upkeepDb);
const pageSize = upkeepDb.pragma('page_size', { simple: true }) as number;
const walSize = () => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

/** WAL frames appended since byte `from`, counted by the table or index their page belongs to (dbstat). */
function framesByTree(from: number, into: Map<string, number>): void {
  const wal = readFileSync(`${file}-wal`);
  const owner = new Map(
    (upkeepDb.prepare('SELECT pageno, name FROM dbstat').all() as { pageno: number; name: string }[]).map((r) => [
      r.pageno,
      r.name,
    ]),
  );
  for (let at = Math.max(32, from); at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const name = owner.get(wal.readUInt32BE(at)) ?? '(free or new)';
    into.set(name, (into.get(name) ?? 0) + 1);
  }
}

const config = loadConfig({}, ['--max-sessions', '100000', '--persist', 'on'], DEFAULT_CATALOG_ID);
const svc = createEnvService({
  config,
  catalog,
  tokens: createTokenService({ secret: 'bench' }),
  sessions: new SessionStore({ maxSessions: 100_000, idleTimeoutMs: 3_600_000, evictRunning: false }),
  recorder: new Recorder(writer),
});

/** Plays every script once, `batch` episodes interleaved per turn (one group commit per turn of a group). */
async function play(): Promise<void> {
  for (let g = 0; g < scripts.length; g += batch) {
    const group = scripts.slice(g, g + batch);
    const lives = group.map((s) => svc.reset(JSON.parse(s.reset)));
    await Promise.all(lives.map((l) => svc.durable(l.response)));
    for (let t = 0; ; t++) {
      const live = group.flatMap((s, i) => (t < s.actions.length ? [[i, s.actions[t]] as const] : []));
      if (live.length === 0) break;
      const answers = live.map(([i, a]) => svc.stepLive(lives[i].live, JSON.parse(a)));
      await Promise.all(answers.map((a) => svc.durable(a)));
    }
    for (const l of lives) svc.sessions.drop(l.live.id);
  }
}

const frames = new Map<string, number>();
const rows = { walBytes: [] as number[], walPages: [] as number[], write: [] as number[], upkeep: [] as number[] };
for (let r = 0; r < rounds; r++) {
  const walBefore = walSize();
  spent.write = 0;
  await play();
  const wal = walSize() - walBefore;
  if (r >= rounds / 2) framesByTree(walBefore, frames);
  const t = process.cpuUsage();
  index.catchUp();
  upkeepDb.pragma('wal_checkpoint(TRUNCATE)');
  const upkeep = cpuMs(process.cpuUsage(t));
  if (r < rounds / 2) continue;
  const per1k = (v: number) => (v / steps) * 1000;
  rows.walBytes.push(per1k(wal));
  rows.walPages.push(per1k(wal / (pageSize + 24)));
  rows.write.push(per1k(spent.write));
  rows.upkeep.push(per1k(upkeep));
}
const stored = upkeepDb.prepare('SELECT count(*) FROM "Episode"').pluck().get() as number;
console.log(
  `${episodes} oracle episodes (${steps} steps) × ${rounds} rounds into one store (${stored} episodes at the end), ` +
    `${batch} episodes per group commit; per 1,000 steps over the last ${rounds - Math.ceil(rounds / 2)} rounds:`,
);
console.log(`WAL appended by the commits      ${(median(rows.walBytes) / 1024).toFixed(0).padStart(7)} KB`);
console.log(`  pages                          ${median(rows.walPages).toFixed(0).padStart(7)}`);
const measuredSteps = steps * (rounds - Math.ceil(rounds / 2));
for (const [name, n] of [...frames].sort((a, b) => b[1] - a[1]))
  console.log(`    ${name.padEnd(38)} ${((n / measuredSteps) * 1000).toFixed(0).padStart(7)}`);
console.log(`writer's transactions (CPU)      ${median(rows.write).toFixed(0).padStart(7)} ms (median)`);
console.log(`upkeep: catch-up + checkpoint    ${median(rows.upkeep).toFixed(0).padStart(7)} ms (median)`);
inner.close();
upkeepDb.close();
db.remove();
