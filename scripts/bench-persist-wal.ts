// npm run bench:persist:wal [-- --episodes 256 --batch 32 --rounds 24 --index-events 20000 --checkpoint-events 7000]
// What the trainer writer's transactions write, on a store that grows as serve:env's does:
// `--rounds` times, `--episodes` oracle episodes are played through the env service (persistence
// on, the SQLite writer inline, `--batch` episodes' operations per group commit) into ONE
// database, with serve:env's upkeep (search catch-up + checkpoint). Printed per 1,000 steps, over
// the second half of the rounds (the store already holds the first half): WAL bytes and pages
// the commits appended (deterministic: a count, not a time, so it compares across machines and
// loads), the writer's CPU (process.cpuUsage around each write; median of the rounds), and the
// upkeep's CPU. Upkeep cadence: after each round (default), or, with --index-events /
// --checkpoint-events, as the upkeep thread runs it under load: a catch-up once that many
// events wait, a checkpoint once that many events were committed since the last (ninth round:
// 20,000 and about a second of commits; before: both at 1,000). Then the checkpoints' work is
// printed too: how many, and the distinct pages they copied back (each page once per checkpoint).
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
import { benchOptions, positive } from './bench-options';

const options = benchOptions('npm run bench:persist:wal [-- options]', {
  episodes: positive(256, 'oracle episodes per round', true),
  batch: positive(32, "episodes' operations per group commit", true),
  rounds: positive(24, 'rounds into the one database', true),
  'index-events': positive(1000, 'search catch-up once this many events wait (else after each round)', true),
  'checkpoint-events': positive(1000, 'checkpoint once this many events were committed (else after each round)', true),
});
const { episodes, batch, rounds } = options;
const cadenceGiven = options.given('index-events') || options.given('checkpoint-events');
const indexEvery = options['index-events'];
const checkpointEvery = options['checkpoint-events'];

const catalog = getCatalog(DEFAULT_CATALOG_ID);
const scripts: Script[] = Array.from({ length: episodes }, (_, i) => recordScript(catalog, 'oracle', i % 64, i >> 6));
const steps = scripts.reduce((n, s) => n + s.actions.length, 0);
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const db = migratedTempDatabase();
const file = sqliteFile(db.url)!;
const inner = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
const spent = { write: 0 };
/** Events committed since the last catch-up / checkpoint (the cadence options). */
const since = { index: 0, checkpoint: 0 };
const writer: BatchWriter = {
  write(ops) {
    const t = process.cpuUsage();
    inner.write(ops);
    spent.write += cpuMs(process.cpuUsage(t));
    if (!cadenceGiven) return;
    const events = ops.reduce((n, o) => n + o.events.length, 0);
    since.index += events;
    since.checkpoint += events;
    if (since.index >= indexEvery || since.checkpoint >= checkpointEvery) upkeep(since.index >= indexEvery);
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

/** Distinct pages among the WAL's frames: what a checkpoint copies back (the WAL is truncated after each). */
function distinctWalPages(): number {
  const wal = readFileSync(`${file}-wal`);
  const pages = new Set<number>();
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) pages.add(wal.readUInt32BE(at));
  return pages.size;
}

const frames = new Map<string, number>();
let measuring = false;
/** This round's sums; the commits' WAL bytes are counted up to `walMark` (the WAL is truncated at each checkpoint). */
const acc = { walBytes: 0, index: 0, checkpoint: 0, checkpoints: 0, copied: 0 };
let walMark = 0;
function countCommits(): void {
  const end = walSize();
  if (measuring && end > walMark) framesByTree(walMark, frames);
  acc.walBytes += Math.max(0, end - Math.max(walMark, 32));
  walMark = end;
}
/** serve:env's upkeep: the commits' frames counted, a catch-up (when due), a checkpoint. */
function upkeep(catchUp: boolean): void {
  countCommits();
  let t = process.cpuUsage();
  if (catchUp) {
    index.catchUp();
    since.index = 0;
  }
  acc.index += cpuMs(process.cpuUsage(t));
  acc.copied += distinctWalPages();
  t = process.cpuUsage();
  upkeepDb.pragma('wal_checkpoint(TRUNCATE)');
  acc.checkpoint += cpuMs(process.cpuUsage(t));
  acc.checkpoints++;
  since.checkpoint = 0;
  walMark = 0;
}

const rows = {
  walBytes: [] as number[],
  walPages: [] as number[],
  write: [] as number[],
};
const total = { index: 0, checkpoint: 0, checkpoints: 0, copied: 0 };
for (let r = 0; r < rounds; r++) {
  measuring = r >= rounds / 2;
  spent.write = 0;
  Object.assign(acc, { walBytes: 0, index: 0, checkpoint: 0, checkpoints: 0, copied: 0 });
  await play();
  if (cadenceGiven) countCommits();
  else upkeep(true);
  if (!measuring) continue;
  const per1k = (v: number) => (v / steps) * 1000;
  rows.walBytes.push(per1k(acc.walBytes));
  rows.walPages.push(per1k(acc.walBytes / (pageSize + 24)));
  rows.write.push(per1k(spent.write));
  for (const k of ['index', 'checkpoint', 'checkpoints', 'copied'] as const) total[k] += acc[k];
}
// The upkeep's parts as sums over the measured rounds: with a cadence, a pass spans rounds.
const measuredSteps = steps * (rounds - Math.ceil(rounds / 2));
const perMeasured1k = (v: number) => (v / measuredSteps) * 1000;
const stored = upkeepDb.prepare('SELECT count(*) FROM "Episode"').pluck().get() as number;
console.log(
  `${episodes} oracle episodes (${steps} steps) × ${rounds} rounds into one store (${stored} episodes at the end), ` +
    `${batch} episodes per group commit; per 1,000 steps over the last ${rounds - Math.ceil(rounds / 2)} rounds:`,
);
console.log(`WAL appended by the commits      ${(median(rows.walBytes) / 1024).toFixed(0).padStart(7)} KB`);
console.log(`  pages                          ${median(rows.walPages).toFixed(0).padStart(7)}`);
for (const [name, n] of [...frames].sort((a, b) => b[1] - a[1]))
  console.log(`    ${name.padEnd(38)} ${((n / measuredSteps) * 1000).toFixed(0).padStart(7)}`);
console.log(`writer's transactions (CPU)      ${median(rows.write).toFixed(0).padStart(7)} ms (median)`);
console.log(
  `upkeep: catch-up + checkpoint    ${perMeasured1k(total.index + total.checkpoint)
    .toFixed(0)
    .padStart(7)} ms (sum over the rounds)`,
);
console.log(`  catch-up                       ${perMeasured1k(total.index).toFixed(0).padStart(7)} ms`);
console.log(`  checkpoints                    ${perMeasured1k(total.checkpoint).toFixed(0).padStart(7)} ms`);
console.log(
  `checkpoints: ${perMeasured1k(total.checkpoints).toFixed(1)}, pages copied back ${perMeasured1k(total.copied).toFixed(0)} ` +
    `(cadence: ${cadenceGiven ? `catch-up at ${indexEvery} events, checkpoint at ${checkpointEvery}` : 'after each round'})`,
);
inner.close();
upkeepDb.close();
db.remove();
