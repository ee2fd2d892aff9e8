// npm run bench:persist [-- --episodes 256 --batch 16 --passes 3]
// Where the trainer recorder's CPU goes, per 1,000 steps, in one process (process.cpuUsage):
// recorded oracle episodes are replayed through the env service (no sockets) with persistence
// off, then with the SQLite group-commit writer on a fresh database, `--batch` episodes'
// operations per transaction; the parts are timed on their own: the rows' JSON (events, goal,
// breakdown), the statements, the commit, and afterwards the deferred events' materialisation
// (round 10: the recorder stores actions only) and the full-text catch-up; and with the
// writer on its own thread (as serve:env runs it), what stays on the serving thread. Round 11:
// the same with the finished episodes' logs kept (finished-logs.ts) and written out afterwards
// without a replay, against the replay. Round 12: the writer-thread pass again with the logs
// kept (as serve:env runs), and their writing out through the writer thread, each with the
// serving (main) thread's share.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { createEnvService } from '../server/env-server/protocol';
import { SessionStore } from '../server/env-server/sessions';
import { createTokenService } from '../server/env-server/tokens';
import { Recorder, type BatchWriter, type RecordOp } from '../server/env-server/recorder';
import { openSqliteWriter, openSqliteWriterThread } from '../server/env-server/sqlite-writer';
import { migratedTempDatabase } from '../server/env-server/spawn';
import { sqliteFile } from '../server/db-path';
import { prepareTextIndex } from '../server/episodes/sqlite-store/text-index';
import { materialiseEvents, storeEventLogs } from '../server/episodes/materialise';
import { FinishedLogs, logRows } from '../server/env-server/finished-logs';
import { sqliteInspectorDb } from '../server/inspector/db';
import { median, recordScript, type Script } from './bench-api-lib';
import { benchOptions, positive } from './bench-options';

const { episodes, batch, passes } = benchOptions('npm run bench:persist [-- options]', {
  episodes: positive(256, 'oracle episodes replayed per pass', true),
  batch: positive(16, "episodes' operations per transaction", true),
  passes: positive(3, 'passes (medians over them)', true),
});

const catalog = getCatalog(DEFAULT_CATALOG_ID);
const scripts: Script[] = Array.from({ length: episodes }, (_, i) => recordScript(catalog, 'oracle', i % 64, i >> 6));
const steps = scripts.reduce((n, s) => n + s.actions.length, 0);
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
/** CPU ms of this process's main thread alone (Linux /proc; 10 ms ticks, fine over a pass of seconds). */
function mainThreadMs(): number {
  const text = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** Plays every script, `batch` episodes interleaved per turn; returns CPU ms of the whole pass. */
async function pass(writer: BatchWriter | null, finishedLogs: FinishedLogs | null = null): Promise<number> {
  return (await timedPass(writer, finishedLogs)).process;
}

/** A pass's CPU ms: the whole process, and its main thread alone. */
async function timedPass(
  writer: BatchWriter | null,
  finishedLogs: FinishedLogs | null = null,
): Promise<{ process: number; main: number }> {
  const config = loadConfig({}, ['--max-sessions', '100000', '--persist', writer ? 'on' : 'off'], DEFAULT_CATALOG_ID);
  const svc = createEnvService({
    config,
    catalog,
    tokens: createTokenService({ secret: 'bench' }),
    sessions: new SessionStore({ maxSessions: 100_000, idleTimeoutMs: 3_600_000, evictRunning: false }),
    recorder: writer ? new Recorder(writer, { finishedLogs }) : null,
  });
  const recorder = svc.recorder;
  const start = process.cpuUsage();
  const mainStart = mainThreadMs();
  for (let g = 0; g < scripts.length; g += batch) {
    const group = scripts.slice(g, g + batch);
    const lives = group.map((s) => svc.reset(JSON.parse(s.reset)));
    await Promise.all(lives.map((l) => svc.durable(l.response)));
    for (let t = 0; ; t++) {
      const live = group.map((s, i) => (t < s.actions.length ? [i, s.actions[t]] : null)).filter((x) => x !== null);
      if (live.length === 0) break;
      const answers = live.map(([i, a]) => svc.stepLive(lives[i as number].live, JSON.parse(a as string)));
      await Promise.all(answers.map((a) => svc.durable(a)));
    }
    for (const l of lives) svc.sessions.drop(l.live.id);
  }
  await recorder?.drain();
  return { process: cpuMs(process.cpuUsage(start)), main: mainThreadMs() - mainStart };
}

/** Takes every batch and writes nothing: what the recorder itself costs (the rows' JSON, the goal). */
const discardingWriter: BatchWriter = { write: () => {} };

/** A writer that only times what it is given (for splitting the writer's parts). */
function timedWriter(inner: BatchWriter, spent: { write: number; ops: number }): BatchWriter {
  return {
    write(ops: RecordOp[]) {
      const t = process.cpuUsage();
      inner.write(ops);
      spent.write += cpuMs(process.cpuUsage(t));
      spent.ops += ops.length;
    },
  };
}

// Warm the JIT on both paths before anything is counted.
{
  const db = migratedTempDatabase();
  const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
  await pass(null);
  await pass(writer);
  writer.close();
  db.remove();
}
const rows: Record<string, number[]> = {};
const add = (k: string, v: number) => (rows[k] ??= []).push((v / steps) * 1000);
for (let p = 0; p < passes; p++) {
  const off = await timedPass(null);
  add('persistence off (service)', off.process);
  add('  of which the main thread', off.main);
  add('recording to a writer that discards (service + the rows as text)', await pass(discardingWriter));
  {
    const db = migratedTempDatabase();
    const writer = openSqliteWriterThread(db.url, { upkeep: 'elsewhere' });
    await pass(writer); // the thread loads its modules and warms up first
    const t = await timedPass(writer);
    add('persistence on, writer thread (serve:env): whole process', t.process);
    add('  of which the serving (main) thread', t.main);
    // As serve:env runs it (round 12): the finished episodes' logs kept, then written out as the
    // idle worker does, 32 a transaction (since round 12 through the writer thread).
    const logs = new FinishedLogs({ maxEpisodes: 1e9, maxBytes: 1e12 });
    const k = await timedPass(writer, logs);
    add('persistence on, writer thread, finished logs kept: whole process', k.process);
    add('  of which the serving (main) thread (logs kept)', k.main);
    const m = { process: process.cpuUsage(), main: mainThreadMs() };
    while (logs.size > 0) await writer.storeLogs(logs.take(32));
    add(
      'writing the kept logs afterwards (through the writer thread): whole process',
      cpuMs(process.cpuUsage(m.process)),
    );
    add('  of which the serving (main) thread (writing the logs)', mainThreadMs() - m.main);
    await writer.close();
    db.remove();
  }
  for (const sync of ['NORMAL', 'OFF'] as const) {
    const db = migratedTempDatabase();
    const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere', synchronous: sync });
    const spent = { write: 0, ops: 0 };
    const total = await pass(timedWriter(writer, spent));
    add(`persistence on, synchronous=${sync} (service + writer)`, total);
    add(`  of which the writer's transaction (statements + commit), synchronous=${sync}`, spent.write);
    writer.close();
    const conn = new Database(sqliteFile(db.url)!);
    // The events the recorder deferred (round 10): replayed from the actions and stored, as a
    // reader or an idle worker does (materialise.ts); then indexed.
    const m = process.cpuUsage();
    await materialiseEvents(sqliteInspectorDb(conn), 'all pending', () => catalog);
    add(`materialising the events afterwards (replay + store), synchronous=${sync}`, cpuMs(process.cpuUsage(m)));
    const index = prepareTextIndex(conn);
    const t = process.cpuUsage();
    index.catchUp();
    add('full-text catch-up afterwards (indexer)', cpuMs(process.cpuUsage(t)));
    conn.close();
    db.remove();
  }
  {
    // Round 11: the finished episodes' logs kept by the recorder, written out afterwards (no replay).
    const db = migratedTempDatabase();
    const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
    const logs = new FinishedLogs({ maxEpisodes: 1e9, maxBytes: 1e12 });
    add('persistence on, synchronous=NORMAL, finished logs kept (service + writer + logs)', await pass(writer, logs));
    writer.close();
    const conn = new Database(sqliteFile(db.url)!);
    const sql = sqliteInspectorDb(conn);
    const m = process.cpuUsage();
    while (logs.size > 0) await storeEventLogs(sql, logs.take(32).map(logRows));
    add(
      'writing the kept logs afterwards (no replay; as the idle worker, 32 a transaction)',
      cpuMs(process.cpuUsage(m)),
    );
    const left = await materialiseEvents(sql, 'all pending', () => catalog);
    if (left.episodes !== 0) throw new Error(`${left.episodes} episodes were left to the replay`);
    conn.close();
    db.remove();
  }
}
console.log(
  `${episodes} oracle episodes, ${steps} steps, ${batch} episodes per group commit; CPU ms per 1,000 steps, median of ${passes}:`,
);
for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(78)} ${median(v).toFixed(0).padStart(6)} ms`);
