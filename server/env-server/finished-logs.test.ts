// Finished episodes' logs written out without a replay (finished-logs.ts, storeEventLogs in
// materialise.ts): the rows must be byte for byte what the eager path stores, in every env, with
// both writers on their own databases (serve:env's SQLite writer; Prisma's on a real
// PostgreSQL), and the watermark must stay right when a reader's replay or another writer
// stores the same episode before, after or (PostgreSQL) at the same time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createPrismaClient, type PrismaClient } from '@/server/db';
import { materialiseEvents, storeEventLogs, type EventStoreDb } from '@/server/episodes/materialise';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { openSqlite, pgInspectorDb, sqliteInspectorDb, type InspectorDb } from '@/server/inspector/db';
import { EVENT_BYTES_ESTIMATE, FinishedLogs, logRows, type FinishedLog } from './finished-logs';
import { startIdleMaterialiser } from './idle-materialiser';
import { createEnvService } from './protocol';
import { Recorder, type BatchWriter } from './recorder';
import { SessionStore } from './sessions';
import { openSqliteWriterThread, type LogsStored } from './sqlite-writer';
import { createTokenService } from './tokens';
import { playRecorded, testConfig } from './test/helpers';
import { findPostgresBin } from './test/postgres';
import { testPostgres, type TestPostgres } from './test/shared-postgres';

const ENVS = listEnvs().map((e) => e.id as EnvId);
const postgres = findPostgresBin();
if ('missing' in postgres) console.error(`[finished-logs] PostgreSQL cases NOT RUN: ${postgres.missing}`);

/** A store under test: its writer, and SQL connections as a worker and a reader hold them. */
interface Store {
  writer: BatchWriter | PrismaClient;
  /** How a worker writes its finished logs (SQLite: serve:env's writer thread; PostgreSQL: the worker's connection). */
  storeLogs(logs: readonly FinishedLog[]): Promise<LogsStored>;
  /** The worker's connection (idle materialiser) and a reader's (another process in production). */
  worker: InspectorDb;
  reader: InspectorDb;
}

let sqlite: TestDb;
let pg: TestPostgres | null = null;
let pgPrisma: PrismaClient | null = null;
let closeWriter: () => Promise<void> = async () => {};
const stores: Record<'sqlite' | 'postgresql', Store | null> = { sqlite: null, postgresql: null };

beforeAll(async () => {
  sqlite = createTestDb();
  const writer = openSqliteWriterThread(sqlite.url);
  closeWriter = () => writer.close();
  stores.sqlite = {
    writer,
    storeLogs: (logs) => writer.storeLogs(logs),
    worker: sqliteInspectorDb(openSqlite(sqlite.url)),
    reader: sqliteInspectorDb(openSqlite(sqlite.url)),
  };
  if ('missing' in postgres) return;
  pg = await testPostgres('finished_logs');
  pgPrisma = createPrismaClient(pg.url);
  const worker = pgInspectorDb(pg.url);
  stores.postgresql = {
    writer: pgPrisma,
    storeLogs: (logs) => storeEventLogs(worker, logs.map(logRows)),
    worker,
    reader: pgInspectorDb(pg.url),
  };
}, 300_000);
afterAll(async () => {
  for (const s of Object.values(stores)) {
    await s?.worker.close();
    await s?.reader.close();
  }
  await closeWriter();
  await pgPrisma?.$disconnect();
  await pg?.drop();
  await sqlite?.cleanup();
});

function recording(store: Store, events: 'deferred' | 'stored', finishedLogs: FinishedLogs | null = null) {
  return createEnvService({
    config: testConfig({ persist: true }),
    catalog: testCatalog(),
    tokens: createTokenService({ secret: 'x' }),
    sessions: new SessionStore({ maxSessions: 1000, idleTimeoutMs: 60_000 }),
    recorder: new Recorder(store.writer, { events, finishedLogs }),
  });
}

/** Plays one episode; `midway` runs after the first step (a reader materialising it). */
async function play(
  service: ReturnType<typeof recording>,
  envId: EnvId,
  agent: 'oracle' | 'random',
  seed: number,
  options: { stopAfter?: number; midway?: (id: string) => Promise<unknown> } = {},
) {
  return (await playRecorded(service, envId, agent, seed, options)).id;
}

const eventsOf = (db: EventStoreDb, id: string) =>
  db.all('SELECT "seq","turn","kind","payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"', [id]);
const rowOf = async (db: EventStoreDb, id: string) =>
  (
    await db.all<Record<string, unknown>>(
      `SELECT "turn","status","terminationReason","reward","isCorrect","breakdown","hiddenGoal","eventCount","eventsStored"
       FROM "Episode" WHERE "id" = ?`,
      [id],
    )
  )[0];

/** The deferred episode's stored rows are the eager one's, and its watermark says all are stored. */
async function expectSameAsEager(db: EventStoreDb, lazy: string, eager: string) {
  expect(await eventsOf(db, lazy)).toEqual(await eventsOf(db, eager));
  const { eventsStored, ...after } = await rowOf(db, lazy);
  const { eventsStored: none, ...reference } = await rowOf(db, eager);
  expect(after).toEqual(reference);
  expect([eventsStored, none]).toEqual([reference.eventCount, null]);
}

const CASES = (['sqlite', 'postgresql'] as const).flatMap((kind) => ENVS.map((envId) => [kind, envId] as const));

describe('finished logs written out without a replay', () => {
  it.each(CASES)('%s, %s: the rows are the eager path’s, byte for byte', async (kind, envId) => {
    const store = stores[kind];
    if (!store) return expect(kind).toBe('postgresql'); // PostgreSQL missing: said above
    const logs = new FinishedLogs();
    const stored = recording(store, 'stored');
    const deferred = recording(store, 'deferred', logs);
    const cases = [
      { agent: 'oracle', seed: 31 },
      { agent: 'random', seed: 32 },
      { agent: 'random', seed: 33, stopAfter: 0 }, // still running: no log
      // a reader materialised it after the first step (replay): the log adds the rest
      { agent: 'random', seed: 34, midway: (id: string) => materialiseEvents(store.reader, [id], () => testCatalog()) },
    ] as const;
    const pairs: Array<{ eager: string; lazy: string; finished: boolean }> = [];
    for (const c of cases) {
      const opts = { stopAfter: 'stopAfter' in c ? c.stopAfter : Infinity };
      const eager = await play(stored, envId, c.agent, c.seed, opts);
      const lazy = await play(deferred, envId, c.agent, c.seed, {
        ...opts,
        midway: 'midway' in c ? c.midway : undefined,
      });
      pairs.push({ eager, lazy, finished: (await rowOf(store.worker, lazy)).status === 'done' });
    }
    expect(pairs.map((p) => p.finished)).toEqual([true, true, false, true]);
    // Only the finished ones are queued, in the order they ended; of theirs only what a reader stored is there.
    expect(logs.size).toBe(3);
    const queued = logs.take(10);
    expect(queued.map((l) => l.id)).toEqual(pairs.filter((p) => p.finished).map((p) => p.lazy));
    expect(await eventsOf(store.worker, pairs[0].lazy)).toEqual([]);
    const before = await Promise.all(queued.map((l) => rowOf(store.worker, l.id)));
    const waiting = before.filter((r) => Number(r.eventsStored) < Number(r.eventCount));
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    const done = await store.storeLogs(queued);
    const events = waiting.reduce((n, r) => n + Number(r.eventCount) - Number(r.eventsStored), 0);
    expect(done).toEqual({ episodes: waiting.length, events });
    for (const p of pairs.filter((p) => p.finished)) await expectSameAsEager(store.worker, p.lazy, p.eager);
    // The running one still waits (its events come from a replay or its own log when it ends).
    expect(await rowOf(store.worker, pairs[2].lazy)).toMatchObject({ eventsStored: 0 });
    // Written again (a retry, another writer): nothing to do, nothing changes.
    expect(await store.storeLogs(queued)).toEqual({ episodes: 0, events: 0 });
    expect(
      await materialiseEvents(
        store.reader,
        queued.map((l) => l.id),
        () => testCatalog(),
      ),
    ).toMatchObject({
      episodes: 0,
    });
    for (const p of pairs.filter((p) => p.finished)) await expectSameAsEager(store.worker, p.lazy, p.eager);
  });

  it.each(['sqlite', 'postgresql'] as const)(
    '%s: a reader’s replay before or after the log leaves the same rows and watermark',
    async (kind) => {
      const store = stores[kind];
      if (!store) return expect(kind).toBe('postgresql');
      const logs = new FinishedLogs();
      const stored = recording(store, 'stored');
      const deferred = recording(store, 'deferred', logs);
      const pairs = [];
      for (const [i, envId] of ENVS.entries())
        pairs.push({
          eager: await play(stored, envId, 'oracle', 90 + i),
          lazy: await play(deferred, envId, 'oracle', 90 + i),
        });
      const queued = logs.take(100);
      const ids = queued.map((l) => l.id);
      // the reader first for half of them, the log for all, the reader again for all
      const first = await materialiseEvents(store.reader, ids.slice(0, 4), () => testCatalog());
      expect(first.episodes).toBe(4);
      expect(await store.storeLogs(queued)).toMatchObject({ episodes: ids.length - 4 });
      expect(await materialiseEvents(store.reader, ids, () => testCatalog())).toMatchObject({ episodes: 0 });
      for (const p of pairs) await expectSameAsEager(store.worker, p.lazy, p.eager);
    },
  );

  it.skipIf('missing' in postgres)(
    'postgresql: a reader’s replay and two log writers on the same episodes at the same time',
    async () => {
      const store = stores.postgresql!;
      const another = pgInspectorDb(pg!.url);
      try {
        for (let round = 0; round < 3; round++) {
          const logs = new FinishedLogs();
          const stored = recording(store, 'stored');
          const deferred = recording(store, 'deferred', logs);
          const pairs = [];
          for (const [i, envId] of ENVS.entries()) {
            const seed = 200 + round * 10 + i;
            for (const agent of ['oracle', 'random'] as const)
              pairs.push({
                eager: await play(stored, envId, agent, seed),
                lazy: await play(deferred, envId, agent, seed),
              });
          }
          const queued = logs.take(100);
          const ids = queued.map((l) => l.id);
          const [a, b, c] = await Promise.all([
            store.storeLogs(queued),
            materialiseEvents(store.reader, [...ids].reverse(), () => testCatalog()),
            storeEventLogs(another, [...queued].reverse().map(logRows)),
          ]);
          // every event stored once between them, whatever the interleaving
          const total = queued.reduce((n, l) => n + l.events.length, 0);
          expect(a.events + b.events + c.events).toBeGreaterThanOrEqual(total);
          for (const id of ids) {
            const row = await rowOf(store.worker, id);
            expect(row.eventsStored).toBe(row.eventCount);
          }
          for (const p of pairs) await expectSameAsEager(store.worker, p.lazy, p.eager);
          for (const log of queued)
            expect((await eventsOf(store.worker, log.id)).map((e) => (e as { payload: string }).payload)).toEqual(
              logRows(log).rows.map((r) => r.payload),
            );
        }
      } finally {
        await another.close();
      }
    },
  );
});

describe('the queue and the idle worker', () => {
  it('keeps logs up to its count and its estimated bytes (EVENT_BYTES_ESTIMATE an event)', () => {
    const events = [{ kind: 'user_message', turn: 0, text: 'x'.repeat(100) }] as never;
    const byCount = new FinishedLogs({ maxEpisodes: 2, maxBytes: 1e9 });
    expect([1, 2, 3].map((i) => byCount.offer(`e${i}`, events))).toEqual([true, true, false]);
    expect(byCount.take(1).map((l) => l.id)).toEqual(['e1']);
    expect(byCount.offer('e4', events)).toBe(true);
    expect(byCount.take(5).map((l) => l.id)).toEqual(['e2', 'e4']);
    const byBytes = new FinishedLogs({ maxEpisodes: 100, maxBytes: 2 * EVENT_BYTES_ESTIMATE + 100 });
    expect([1, 2, 3].map((i) => byBytes.offer(`e${i}`, events))).toEqual([true, true, false]);
    expect(byBytes.bytes).toBe(2 * EVENT_BYTES_ESTIMATE);
    expect(byBytes.stats).toEqual({ kept: 2, refused: 1, taken: 0 });
    byBytes.take(2);
    expect([byBytes.size, byBytes.bytes]).toEqual([0, 0]);
  });

  it('serialises nothing at the offer: the rows are built when the log is written', () => {
    let serialised = 0;
    const event = { kind: 'user_message', turn: 0, text: 'hi', toJSON: () => (serialised++, { kind: 'user_message' }) };
    const logs = new FinishedLogs();
    expect(logs.offer('e1', [event] as never)).toBe(true);
    expect(serialised).toBe(0);
    expect(logRows(logs.take(1)[0]).rows.map((r) => r.payload)).toEqual(['{"kind":"user_message"}']);
    expect(serialised).toBe(1);
  });

  it('writes its logs when idle without replaying, and replays only what it does not hold', async () => {
    const store = stores.sqlite!;
    const logs = new FinishedLogs();
    const deferred = recording(store, 'deferred', logs);
    const finished = [await play(deferred, 'PD', 'oracle', 51), await play(deferred, 'SUB', 'oracle', 52)];
    const running = await play(deferred, 'STATUS', 'oracle', 53, { stopAfter: 0 });
    const abandoned = await play(deferred, 'STATUS', 'oracle', 54, { stopAfter: 0 });
    const catalog = testCatalog();
    // Logs only (a second worker of serve:env, its logs through the writer thread): the finished
    // ones are stored, nothing is replayed.
    const logsOnly = startIdleMaterialiser({
      db: store.worker,
      catalog,
      activity: () => 0,
      lookMs: 5,
      logs,
      storeLogs: store.storeLogs,
      replay: false,
    });
    for (let i = 0; i < 200 && logs.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    await logsOnly.stop();
    for (const id of finished) expect(Number((await rowOf(store.worker, id)).eventsStored)).toBeGreaterThan(0);
    for (const id of [running, abandoned]) expect((await rowOf(store.worker, id)).eventsStored).toBe(0);
    // With the replay: the episode this worker still plays is passed over, the abandoned one replayed.
    const all = startIdleMaterialiser({
      db: store.worker,
      catalog,
      activity: () => 0,
      lookMs: 5,
      logs,
      held: (id) => id === running,
    });
    const stored = async (id: string) => {
      const row = await rowOf(store.worker, id);
      return row.eventsStored === row.eventCount;
    };
    for (let i = 0; i < 200 && !(await stored(abandoned)); i++) await new Promise((r) => setTimeout(r, 10));
    await all.stop();
    expect(await stored(abandoned)).toBe(true);
    expect((await rowOf(store.worker, running)).eventsStored).toBe(0);
    for (const id of finished) expect(await stored(id)).toBe(true);
    await materialiseEvents(store.reader, [running], () => testCatalog());
  });

  it('writes what is still queued when it stops (a graceful shutdown of a busy worker)', async () => {
    const store = stores.sqlite!;
    const logs = new FinishedLogs();
    const deferred = recording(store, 'deferred', logs);
    const ids = [await play(deferred, 'CART', 'oracle', 61), await play(deferred, 'POLICY', 'oracle', 62)];
    let activity = 0;
    const busy = startIdleMaterialiser({
      db: store.worker,
      catalog: testCatalog(),
      activity: () => ++activity,
      utilisation: () => 0.9,
      lookMs: 5,
      logs,
      storeLogs: store.storeLogs,
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(logs.size).toBe(2); // never idle: nothing written yet
    await busy.stop();
    expect(logs.size).toBe(0);
    for (const id of ids) {
      const row = await rowOf(store.worker, id);
      expect(row.eventsStored).toBe(row.eventCount);
    }
  });
});
