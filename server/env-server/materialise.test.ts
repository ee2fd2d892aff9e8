// Deferred events (server/episodes/materialise.ts): the trainer recorder stores per step only the
// action and the row's progress; what a reader gets after materialising must be byte for byte the
// rows the eager path stores, in every env, for a finished and a running episode, with both
// writers (SQLite's own statements and Prisma).
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listEnvs, oracleAgent, type EnvId } from '@/server/engine';
import type { EpisodeEvent } from '@/server/engine/types';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { sqliteFile } from '@/server/db-path';
import { materialiseEvents } from '@/server/episodes/materialise';
import { prismaSqlDb } from '@/server/episodes/prisma-sql';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { openSqlite, sqliteInspectorDb } from '@/server/inspector/db';
import { listInputSchema } from '@/server/inspector/filters';
import { episodeIds, listEpisodes } from '@/server/inspector/query';
import { createEnvService } from './protocol';
import { Recorder, type BatchWriter } from './recorder';
import { SessionStore } from './sessions';
import { openSqliteWriter } from './sqlite-writer';
import { createTokenService } from './tokens';
import { playRecorded, testConfig } from './test/helpers';
import { startIdleMaterialiser } from './idle-materialiser';
import { buildEnvService } from './server';

let db: TestDb;
let sql: Database.Database;
beforeAll(() => {
  db = createTestDb();
  sql = new Database(sqliteFile(db.url)!);
}, 120_000);
afterAll(async () => {
  sql?.close();
  await db?.cleanup();
});

const ENVS = listEnvs().map((e) => e.id as EnvId);

function recording(target: BatchWriter | TestDb['prisma'], events: 'deferred' | 'stored') {
  return createEnvService({
    config: testConfig({ persist: true }),
    catalog: testCatalog(),
    tokens: createTokenService({ secret: 'x' }),
    sessions: new SessionStore({ maxSessions: 1000, idleTimeoutMs: 60_000 }),
    recorder: new Recorder(target, { events }),
  });
}

/** The events each played episode has in memory (what its stored rows must come to). */
const played = new Map<string, readonly EpisodeEvent[]>();

/** Plays the same episode into a recorder; `stopAfter` leaves it running after that many steps. */
async function play(
  service: ReturnType<typeof recording>,
  envId: EnvId,
  agent: 'oracle' | 'random',
  seed: number,
  stopAfter = Infinity,
) {
  const live = await playRecorded(service, envId, agent, seed, { stopAfter });
  played.set(live.id, live.episode.events);
  return live.id;
}

const eventsOf = (id: string) =>
  sql.prepare('SELECT "seq","turn","kind","payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"').all(id);
const rowOf = (id: string) =>
  sql
    .prepare(
      `SELECT "turn","status","terminationReason","reward","isCorrect","breakdown","hiddenGoal","eventCount","eventsStored"
       FROM "Episode" WHERE "id" = ?`,
    )
    .get(id) as Record<string, unknown>;

const WRITERS = {
  sqlite: () => openSqliteWriter(db.url),
  prisma: () => db.prisma,
};
// Every env through SQLite's writer (serve:env's); Prisma's writer (PostgreSQL, the Next mount) writes the same rows.
const CASES = [
  ...ENVS.map((envId) => ['sqlite', envId] as const),
  ['prisma', 'PD'] as const,
  ['prisma', 'JOURNEY'] as const,
];

describe('deferred events', () => {
  it.each(CASES)(
    '%s writer, %s: materialised rows equal the eagerly stored ones (finished and running)',
    async (kind, envId) => {
      const stored = recording(WRITERS[kind](), 'stored');
      const deferred = recording(WRITERS[kind](), 'deferred');
      const cases = [
        ['oracle', 31, Infinity],
        ['random', 32, Infinity],
        ['random', 33, 2],
      ] as const;
      for (const [agent, seed, stopAfter] of cases) {
        const eager = await play(stored, envId, agent, seed, stopAfter);
        const lazy = await play(deferred, envId, agent, seed, stopAfter);
        const before = rowOf(lazy);
        // Nothing but the opening row is stored until a reader asks.
        expect(eventsOf(lazy)).toEqual([]);
        expect(before.eventsStored).toBe(0);
        expect(before.eventCount).toBe(rowOf(eager).eventCount);
        const db2 = kind === 'prisma' ? prismaSqlDb(db.prisma, 'sqlite') : sqliteInspectorDb(openSqlite(db.url));
        const done = await materialiseEvents(db2, [lazy], () => testCatalog());
        expect(done).toMatchObject({ episodes: 1, events: before.eventCount, failed: [] });
        expect(eventsOf(lazy)).toEqual(eventsOf(eager));
        const { eventsStored, ...after } = rowOf(lazy);
        const { eventsStored: none, ...reference } = rowOf(eager);
        expect(after).toEqual(reference);
        expect([eventsStored, none]).toEqual([reference.eventCount, null]);
        // A second call finds nothing pending.
        expect(await materialiseEvents(db2, [lazy], () => testCatalog())).toMatchObject({ episodes: 0, events: 0 });
      }
    },
  );
});

describe('materialising', () => {
  it('continues a running episode from its watermark, and "all pending" finds every waiting episode', async () => {
    const writer = openSqliteWriter(db.url);
    const deferred = recording(writer, 'deferred');
    const stored = recording(writer, 'stored');
    const inspector = sqliteInspectorDb(openSqlite(db.url));
    const { live, response } = deferred.reset({ env: 'SUB', d: 4, seed: 77 });
    await deferred.durable(response);
    const eager = stored.reset({ env: 'SUB', d: 4, seed: 77 });
    await stored.durable(eager.response);
    let observation = response.observation;
    for (let i = 0; !live.episode.done; i++) {
      const action = oracleAgent.act(observation, live.episode);
      const r = deferred.stepLive(live, action);
      await deferred.durable(r);
      await stored.durable(stored.stepLive(eager.live, action));
      observation = r.observation;
      // a reader between steps materialises what is there so far
      const pending = await materialiseEvents(inspector, 'all pending', () => testCatalog());
      expect(pending.episodes).toBeGreaterThanOrEqual(1);
      expect(rowOf(live.id).eventsStored).toBe(live.episode.events.length);
    }
    expect(eventsOf(live.id)).toEqual(eventsOf(eager.live.id));
    expect(rowOf(live.id).hiddenGoal).toBe(rowOf(eager.live.id).hiddenGoal);
    expect(await materialiseEvents(inspector, 'all pending', () => testCatalog())).toMatchObject({
      episodes: 0,
      events: 0,
    });
    writer.close();
  });

  it('refuses a log the engine does not reproduce, naming the episode', async () => {
    const writer = openSqliteWriter(db.url);
    const deferred = recording(writer, 'deferred');
    const id = await play(deferred, 'PD', 'oracle', 41, 1);
    sql.prepare('UPDATE "EpisodeAction" SET "eventEnd" = "eventEnd" + 1 WHERE "episodeId" = ?').run(id);
    const inspector = sqliteInspectorDb(openSqlite(db.url));
    await expect(materialiseEvents(inspector, [id], () => testCatalog())).rejects.toThrow(
      `episode "${id}": replaying its 1 recorded actions gives`,
    );
    // 'all pending' (search, the idle worker) reports it and stores every other episode
    const other = await play(deferred, 'PD', 'oracle', 42);
    const all = await materialiseEvents(inspector, 'all pending', () => testCatalog());
    expect(all.failed).toEqual([{ id, error: expect.stringContaining('replaying its 1 recorded actions gives') }]);
    expect(rowOf(other).eventsStored).toBe(rowOf(other).eventCount);
    expect(rowOf(id).eventsStored).toBe(0);
    sql.prepare('DELETE FROM "Episode" WHERE "id" = ?').run(id);
    writer.close();
  });
});

describe('serve:env --events', () => {
  it.each(['deferred', 'stored'] as const)('%s: the server stores a step’s events then or later', async (events) => {
    const built = buildEnvService(testConfig({ persist: true, events }), testCatalog(), {
      prisma: db.prisma,
      idleMaterialise: false,
    });
    try {
      const id = await play(built.service, 'PD', 'oracle', 71);
      const row = rowOf(id);
      const eventCount = Number(row.eventCount);
      expect(eventCount).toBeGreaterThan(2);
      expect(eventsOf(id)).toHaveLength(events === 'stored' ? eventCount : 0);
      expect(row.eventsStored).toBe(events === 'stored' ? null : 0);
    } finally {
      await built.closeStore();
    }
  });
});

describe('the idle materialiser', () => {
  it('stores waiting events only while the recorder is idle, a chunk at a time', async () => {
    const writer = openSqliteWriter(db.url);
    const deferred = recording(writer, 'deferred');
    const inspector = sqliteInspectorDb(openSqlite(db.url));
    await materialiseEvents(inspector, 'all pending', () => testCatalog());
    const ids = [];
    for (let seed = 60; seed < 66; seed++) ids.push(await play(deferred, 'STATUS', 'oracle', seed));
    const waiting = () =>
      (sql.prepare(`SELECT count(*) AS n FROM "Episode" WHERE "eventsStored" < "eventCount"`).get() as { n: number }).n;
    expect(waiting()).toBe(ids.length);
    // A recorder that keeps receiving steps on a busy worker: nothing is materialised.
    let activity = 0;
    const busy = startIdleMaterialiser({
      db: inspector,
      catalog: testCatalog(),
      activity: () => ++activity,
      utilisation: () => 0.9,
      lookMs: 5,
    });
    await new Promise((r) => setTimeout(r, 60));
    await busy.stop();
    expect(waiting()).toBe(ids.length);
    // Steps keep coming but the worker is mostly idle (a trainer waiting on its model): one
    // chunk per look, since every look sees a new request.
    let looks = 0;
    const trickle = startIdleMaterialiser({
      db: inspector,
      catalog: testCatalog(),
      activity: () => ++activity,
      utilisation: () => (looks++, 0.2),
      lookMs: 5,
      chunk: 1,
    });
    for (let i = 0; i < 200 && waiting() > ids.length - 2; i++) await new Promise((r) => setTimeout(r, 10));
    await trickle.stop();
    expect(waiting()).toBeLessThanOrEqual(ids.length - 2);
    expect(looks).toBeGreaterThanOrEqual(ids.length - waiting());
    // Idle: everything, in chunks of two.
    const idle = startIdleMaterialiser({
      db: inspector,
      catalog: testCatalog(),
      activity: () => 0,
      lookMs: 5,
      chunk: 2,
    });
    for (let i = 0; i < 200 && waiting() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    await idle.stop();
    expect(waiting()).toBe(0);
    for (const id of ids) expect(rowOf(id).eventsStored).toBe(rowOf(id).eventCount);
    writer.close();
  });
});

describe('a reader under a backlog (a budget per read)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('takes a chunk per read, says how many still wait, and a search finds them all once none does', async () => {
    const writer = openSqliteWriter(db.url);
    const deferred = recording(writer, 'deferred');
    const inspector = sqliteInspectorDb(openSqlite(db.url));
    await materialiseEvents(inspector, 'all pending', () => testCatalog());
    const mine = new Map<string, Set<string>>(); // id → the tools it called
    for (let seed = 1000; seed < 1200; seed++) {
      const id = await play(deferred, 'STATUS', 'oracle', seed);
      mine.set(id, new Set());
    }
    for (const id of mine.keys())
      for (const e of played.get(id)!) if (e.kind === 'tool_call') mine.get(id)!.add(e.name);
    // a tool every episode called: the word a search looks for
    const [word] = [...mine.values()].reduce((a, b) => new Set([...a].filter((t) => b.has(t))));
    expect(word).toBeTruthy();
    const stored = () => [...mine.keys()].filter((id) => rowOf(id).eventsStored === rowOf(id).eventCount);
    const toolCounted = () =>
      [...mine.keys()].filter(
        (id) =>
          (sql.prepare('SELECT "toolCalls" FROM "Episode" WHERE "id" = ?').get(id) as { toolCalls: number }).toolCalls >
          0,
      );
    const found = async () =>
      (await episodeIds(inspector, listInputSchema.parse({ filter: { q: word } }))).filter((id) => mine.has(id));

    // the smallest budget still stores one chunk of 64, and counts the rest
    const first = await materialiseEvents(inspector, 'all pending', () => testCatalog(), { budgetMs: 0 });
    expect(first).toMatchObject({ episodes: 64, failed: [], pending: 136 });
    expect(stored()).toHaveLength(64);
    vi.stubEnv('ECOMRLVE_LIST_MATERIALISE_MS', '0');
    vi.stubEnv('ECOMRLVE_SEARCH_MATERIALISE_MS', '0');
    // each list takes the next chunk and says what waits; tool calls are counted for the stored only
    const listed = await listEpisodes(inspector, listInputSchema.parse({ size: 200 }));
    expect(listed.eventsPending).toBe(72);
    expect(stored()).toHaveLength(128);
    expect(toolCounted().sort()).toEqual(stored().sort());
    // the list shows a pending episode's tool calls as not counted yet (null), a stored one's as its count
    const listedMine = listed.rows.filter((r) => mine.has(r.id));
    expect(listedMine).toHaveLength(200);
    expect(
      listedMine
        .filter((r) => r.toolCalls === null)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...mine.keys()].filter((id) => !stored().includes(id)).sort());
    for (const r of listedMine) if (r.toolCalls !== null) expect(r.toolCalls).toBeGreaterThan(0);
    // a search finds exactly the stored ones (one more chunk: 8 left)
    const some = await found();
    expect(some.sort()).toEqual(stored().sort());
    expect(some).toHaveLength(192);
    expect((await listEpisodes(inspector, listInputSchema.parse({}))).eventsPending).toBe(0);
    expect((await found()).sort()).toEqual([...mine.keys()].sort());
    expect(toolCounted()).toHaveLength(200);
    // without a budget, nothing is counted
    expect((await materialiseEvents(inspector, 'all pending', () => testCatalog())).pending).toBeNull();
    writer.close();
  }, 60_000);
});
