// npm run bench:inspector [-- --episodes 100000 --port 3112 --reuse --only list,search,page,import --dir .bench --pg]
// Seeds its own SQLite file (.bench/inspector.db) with 100,000 episodes (copies of a pool of
// real heuristic and oracle episodes over all envs and d, with their own ids, seeds, dates,
// players and runs) and prints medians and p95s:
//   filtered list, full-text search, a 500-turn replay page served by `next start` (needs a
//   `next build`; skipped otherwise), and importing 10,000 episodes into a fresh database.
// --only runview: a training run of --episodes rollouts, seeded on its own (see bench-inspector-runview.ts).
// --reuse keeps a database seeded by an earlier run with the same --episodes (seeding 100k
// takes minutes); --only runs some of the measurements. --pg runs it all on a throw-away
// PostgreSQL server (as the tests start one) instead: the same seeding (copies made inside the
// server), list, search, the page served from it and the import into a second fresh server;
// with --reuse the seeded server's directory is kept in <dir>/pg and started again next time
// (the import's server is always fresh).
// The load average is printed with the figures: the machine may be shared.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEpisode, createHeuristicAgent, oracleAgent, ENV_IDS } from '@/server/engine';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import { openSqlite, pgSqlDb, sqliteSqlDb, type SqlDb } from '@/server/db/sql';
import { copyMigratedSqlite } from '@/server/lib/test/migrated-sqlite';
import { exportJsonl } from '@/server/inspector/export';
import { importFiles } from '@/server/inspector/import';
import { insertEpisode, type EpisodeRecord } from '@/server/inspector/insert';
import { insertCopies, insertMany } from './bench-seed';
import { catchUpSearchIndex } from '@/server/inspector/pg-search';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/episodes/queries/list';
import { playToLine } from '@/server/inspector/play';
import { Rng } from '@/server/engine/random';
import { pgServerCpu } from './pg-server-cpu';
import { measureRunView, seedRun } from './bench-inspector-runview';
import { cpuSeconds, load, mainThreadCpu, measureCheckpoint, report, timed } from './bench-inspector-measure';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const N = arg('episodes', 100_000);
const flag = (name: string) => process.argv.includes(`--${name}`);
const onlyAt = process.argv.indexOf('--only');
const only = new Set(onlyAt < 0 ? ['list', 'search', 'page', 'import'] : process.argv[onlyAt + 1].split(','));
const PORT = arg('port', 3112);
const dirAt = process.argv.indexOf('--dir');
const DIR = path.resolve(dirAt < 0 ? '.bench' : process.argv[dirAt + 1]);
const DB = path.join(DIR, 'inspector.db');
const IMPORT_DB = path.join(DIR, 'inspector-import.db');

const PG = flag('pg');
/** A fresh, migrated, empty store: a SQLite file, or a throw-away PostgreSQL server. */
async function freshStore(
  file: string,
  name: string,
  keepIn?: string,
): Promise<{ store: SqlDb; url: string; stop(): void; reused?: boolean }> {
  if (PG) {
    const { startTempPostgres } = await import('@/server/env-server/test/postgres');
    const server = await startTempPostgres(name, { keepIn });
    const store = pgSqlDb(server.url);
    return { store, url: server.url, stop: () => void store.close().finally(server.stop), reused: server.reused };
  }
  rmSync(file, { force: true });
  copyMigratedSqlite(file);
  const sqlite = openSqlite(`file:${file}`);
  return { store: sqliteSqlDb(sqlite), url: `file:${file}`, stop: () => sqlite.close() };
}
const countEpisodes = async (on: SqlDb) => (await on.get<{ n: number }>('SELECT count(*) AS "n" FROM "Episode"'))!.n;

mkdirSync(DIR, { recursive: true });
console.log(`load average ${load()} on ${os.cpus().length} cores${PG ? ', store PostgreSQL' : ''}`);
const catalog = createSyntheticCatalog({ seed: 1, size: 20_000 });

// ---- the store: seeded N times over from a pool of real episodes (once: --reuse keeps SQLite's)
const rng = Rng.from('bench-inspector', 1);
const players = ['heuristic', 'oracle', 'random', 'model:qwen-7b', 'model:llama-8b', 'human'];
const seededBefore = (): boolean => {
  if (PG || !flag('reuse') || !existsSync(DB)) return false;
  const d = openSqlite(`file:${DB}`);
  try {
    const n = d.prepare('SELECT count(*) FROM "Episode"').pluck().get() as number;
    return n >= N; // an interrupted seeding keeps its committed batches: measure what is there
  } finally {
    d.close();
  }
};
// PostgreSQL with --reuse: the server's directory is kept in DIR/pg (started again next time).
const pgKept = PG && flag('reuse') ? await freshStore(DB, 'bench', path.join(DIR, 'pg')) : null;
const pgSeeded = async () => {
  if (!pgKept?.reused) return false;
  const n = await countEpisodes(pgKept.store);
  const long = await pgKept.store.get(`SELECT 1 AS "x" FROM "Episode" WHERE "runLabel" = 'bench-long'`);
  if (n >= N && long) return true;
  console.log(`the kept PostgreSQL server holds ${n} episodes, not ${N}: seeding it again`);
  await pgKept.store.run('TRUNCATE "Episode" CASCADE');
  return false;
};
const reused = PG ? await pgSeeded() : seededBefore();
const pool: ReturnType<typeof playToLine>[] = [];
const seedsMain = ['list', 'search', 'page', 'import'].some((m) => only.has(m));
if (!reused && seedsMain) {
  const t0 = performance.now();
  for (const envId of ENV_IDS)
    for (let d = 0; d <= 12; d += 2)
      for (let s = 0; s < 3; s++) {
        pool.push(playToLine({ envId, d, seed: s }, catalog, createHeuristicAgent(), 'heuristic'));
        pool.push(playToLine({ envId, d, seed: s }, catalog, oracleAgent, 'oracle'));
      }
  console.log(`pool: ${pool.length} real episodes played in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** A pool episode as a new record: its own seed, date (within 60 days), player and run. */
function copyOf(p: (typeof pool)[number], r: Rng): EpisodeRecord {
  return {
    ...(p as unknown as EpisodeRecord),
    id: undefined,
    createdAt: new Date(SEED_START + Math.floor(r.next() * 60 * 86_400_000)).toISOString(),
    seed: Math.floor(r.next() * 1_000_000),
    player: players[Math.floor(r.next() * players.length)],
    runLabel: `run-${Math.floor(r.next() * 40)}`,
    goalRevealed: r.next() < 0.1,
    rescored: null,
    recorded: null,
  };
}
const SEED_START = Date.parse('2026-10-01T00:00:00Z');

const opened = pgKept
  ? pgKept
  : reused
    ? (() => {
        const sqlite = openSqlite(`file:${DB}`);
        return { store: sqliteSqlDb(sqlite), url: `file:${DB}`, stop: () => sqlite.close() };
      })()
    : await freshStore(DB, 'bench');
const store = opened.store;
try {
  if (reused) {
    console.log(
      `reusing ${PG ? path.join(DIR, 'pg') : DB} (${(await countEpisodes(store)).toLocaleString()} episodes seeded by an earlier run)`,
    );
    await store.run('ANALYZE');
  } else if (seedsMain) await seedStore();
  if (only.has('runview')) {
    await seedRun(store, catalog, N);
    await measureRunView(store);
  }
  if (only.has('list')) await measureList(store, 'filtered list (page of 50 + count)');
  if (only.has('search')) await measureSearch(store, 'full-text search (page + count)');
  if (only.has('page')) await servePage();
  if (only.has('import')) await measureImport();
} finally {
  opened.stop();
}
console.log(`load average ${load()}`);

/** ", n.n s CPU in the PostgreSQL server" since the call (nothing on SQLite). */
async function serverCpuSince(on: SqlDb): Promise<() => string> {
  const read = PG ? await pgServerCpu(on) : null;
  const start = read?.() ?? 0;
  return () => (read ? `, ${(read() - start).toFixed(1)} s CPU in the PostgreSQL server` : '');
}

async function seedStore() {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const serverCpu = await serverCpuSince(store);
  // The pool goes in once (its events serialised and indexed like any import); every other
  // episode is a new row whose log the store copies from a pool episode (no JSON round trip).
  const poolIds = await insertMany(
    store,
    pool.map((p) => copyOf(p, rng)),
  );
  await catchUpSearchIndex(store); // PostgreSQL: the pool's words, which its copies take
  let done = pool.length;
  while (done < N) {
    const batch: Array<{ from: string; record: EpisodeRecord }> = [];
    for (; batch.length < 5000 && done < N; done++) {
      const k = Math.floor(rng.next() * pool.length);
      batch.push({ from: poolIds[k], record: copyOf(pool[k], rng) });
    }
    await insertCopies(store, batch);
    process.stderr.write(`\r  seeded ${done.toLocaleString()} of ${N.toLocaleString()}`);
  }
  process.stderr.write('\n');
  const t1 = performance.now();
  const indexed = await catchUpSearchIndex(store); // events of the pool not indexed by their copies (none)
  const size = (await store.get<{ n: number }>(
    PG
      ? 'SELECT pg_database_size(current_database()) AS "n"'
      : 'SELECT page_count * page_size AS "n" FROM pragma_page_count(), pragma_page_size()',
  ))!.n;
  console.log(
    `seeded ${N.toLocaleString()} episodes in ${((t1 - t0) / 1000).toFixed(1)} s (${cpuSeconds(cpu0)} s CPU in this process${serverCpu()}, database ${(size / 1e9).toFixed(2)} GB)` +
      (PG
        ? `; ${indexed} events left for the search drain, indexed in ${((performance.now() - t1) / 1000).toFixed(1)} s`
        : ''),
  );
  await insertLongEpisode();
  await store.run('ANALYZE');
  if (!PG) await store.run('PRAGMA wal_checkpoint(TRUNCATE)');
}

// ---- filtered lists
async function measureList(on: SqlDb, label: string) {
  const sorts = ['createdAt', 'reward', 'd', 'turn', 'toolCalls', 'envId'] as const;
  const listTimes: number[] = [];
  const listCpu: number[] = [];
  for (let i = 0; i < 60; i++) {
    const envs = ENV_IDS.filter(() => rng.next() < 0.3);
    const dMin = Math.floor(rng.next() * 8);
    const filter = {
      ...(envs.length ? { env: envs } : {}),
      ...(rng.next() < 0.7 ? { dMin, dMax: dMin + 4 } : {}),
      ...(rng.next() < 0.5 ? { pass: rng.next() < 0.5 ? 'pass' : 'fail' } : {}),
      ...(rng.next() < 0.3 ? { player: players[i % players.length] } : {}),
      ...(rng.next() < 0.2 ? { rMin: -0.5, rMax: 0.5 } : {}),
    };
    const input = listInputSchema.parse({
      filter,
      sort: sorts[i % sorts.length],
      dir: rng.next() < 0.5 ? 'asc' : 'desc',
      page: 1 + Math.floor(rng.next() * 20),
    });
    const [wall, cpu] = await timed(() => listEpisodes(on, input));
    listTimes.push(wall);
    listCpu.push(cpu);
  }
  report(label, listTimes, 300, listCpu);
}

// ---- full-text search: words from customer messages and tool results, alone and with filters
async function measureSearch(on: SqlDb, label: string) {
  const words = [
    'monitor',
    'blue',
    'return',
    'order',
    'headphones',
    'cart',
    'syn_0011523',
    'refund',
    'delivered',
    'stainless',
    'wireless',
    'policy',
  ];
  const ftsTimes: number[] = [];
  const ftsCpu: number[] = [];
  for (let i = 0; i < 48; i++) {
    const q = i % 3 === 0 ? `${words[i % words.length]} ${words[(i + 5) % words.length]}` : words[i % words.length];
    const input = listInputSchema.parse({
      filter: { q, ...(i % 2 ? { env: [ENV_IDS[i % 8]] } : {}) },
      sort: i % 4 === 0 ? 'reward' : 'createdAt',
    });
    const [wall, cpu] = await timed(() => listEpisodes(on, input));
    ftsTimes.push(wall);
    ftsCpu.push(cpu);
  }
  report(label, ftsTimes, 500, ftsCpu);
}

// ---- a 500-turn episode (stored with the seed), served by next start
async function insertLongEpisode() {
  // T_max is at most 100; JOURNEY multiplies it by its sub-tasks (5 at d = 12): 500 turns.
  const long = createEpisode({ envId: 'JOURNEY', d: 12, seed: 3, axisOverrides: { T_max: 100 } }, catalog);
  long.reset();
  const longActions = [];
  for (let n = 0; !long.done; n++) {
    const a = {
      assistant_message: `Looking at option ${n}`,
      tool_calls: [{ name: 'catalog.search', args: { query: `blue item ${n % 7}` } }],
      answer: null,
    };
    longActions.push(a);
    long.step(a);
  }
  const goal = long.hiddenGoal();
  const longId = await insertEpisode(store, {
    envId: 'JOURNEY',
    d: 12,
    seed: 3,
    axisOverrides: { T_max: 100 },
    axes: long.axes,
    weights: null,
    catalogId: catalog.id,
    status: 'done',
    terminationReason: long.termination,
    reward: long.breakdown!.total,
    isCorrect: long.breakdown!.isCorrect,
    breakdown: long.breakdown,
    turn: long.turn,
    player: 'bench',
    hiddenGoal: { envId: goal.envId, summary: goal.summary, data: goal.data },
    events: long.events,
    actions: longActions.map((a, i) => ({ format: 'json', raw: JSON.stringify(a), turn: i })),
    goalRevealed: false,
    origin: 'engine',
    runLabel: 'bench-long',
    recorded: null,
    rescored: null,
    prompts: null,
  });
  console.log(`500-turn episode ${longId}: ${long.turn} turns, ${long.events.length} events`);
}

async function servePage(): Promise<void> {
  const longId = (await store.get<{ id: string }>(`SELECT "id" FROM "Episode" WHERE "runLabel" = 'bench-long'`))!.id;
  if (!existsSync('.next/BUILD_ID')) {
    console.log('500-turn replay page                 skipped: run `npx next build` first');
    return;
  }
  const server = spawn('npx', ['next', 'start', '-p', String(PORT), '-H', '127.0.0.1'], {
    env: { ...process.env, DATABASE_URL: opened.url, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    const url = `http://127.0.0.1:${PORT}/episodes/${longId}?turn=250`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 120) throw new Error('next start did not come up in 60 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    await (await fetch(url)).text(); // warm up (first render compiles nothing, but loads modules)
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const res = await fetch(url);
      bytes = (await res.text()).length;
      if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
      times.push(performance.now() - t);
    }
    report(`500-turn replay page (${(bytes / 1e6).toFixed(1)} MB HTML)`, times, 1000);
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}

// ---- import 10,000 episodes into a fresh database
async function measureImport() {
  const ids = (await store.all<{ id: string }>('SELECT "id" FROM "Episode" ORDER BY "createdAt" LIMIT 10000')).map(
    (r) => r.id,
  );
  // Ten files of 1,000 episodes (one string of 10,000 is past V8's string limit), one import call.
  const files: Array<{ name: string; text: string }> = [];
  for (let i = 0; i * 1000 < ids.length; i++)
    files.push({
      name: `bench-${i}.jsonl`,
      text: await exportJsonl(store, ids.slice(i * 1000, (i + 1) * 1000), 'episodes'),
    });
  const bytes = files.reduce((n, f) => n + f.text.length, 0);
  const fresh = await freshStore(IMPORT_DB, 'import');
  const ti = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpu();
  const serverCpu = await serverCpuSince(fresh.store);
  const rep = await importFiles(fresh.store, files, {
    getCatalog: () => catalog,
    defaultCatalogId: catalog.id,
  });
  const importMs = performance.now() - ti;
  const endedAt = Date.now();
  const main1 = mainThreadCpu();
  const ok = rep.filter((r) => r.ok).length;
  console.log(
    `import ${ids.length.toLocaleString()} episodes (${(bytes / 1e6).toFixed(0)} MB JSONL in ${files.length} files)  ${(importMs / 1000).toFixed(1)} s (${cpuSeconds(cpu0)} s CPU${main0 !== null && main1 !== null ? `, ${(main1 - main0).toFixed(1)} s on the main thread` : ''}${serverCpu()}), ${ok} stored, target ≤ 20 s   ${importMs <= 20_000 && ok === ids.length ? 'OK' : 'OVER'}` +
      '\n  (a file this large is re-scored by replay when each episode is first opened; see docs/inspector.md)',
  );
  if (!PG) await measureCheckpoint(fresh.store, endedAt);
  fresh.stop();
}
