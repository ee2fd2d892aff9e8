// Whole-episode writes (imports and bench seeding) through the episode writer: a copy made
// inside the store has the same log as its source, a failing bulk write stores nothing, and what
// was written is searchable at the next query (its catch-up).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleAgent } from '@/server/engine';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { openSqlite, sqliteSqlDb, type Sqlite } from '@/server/db/sql';
import { listInputSchema } from './filters';
import { insertEpisode, type EpisodeRecord } from './insert';
import { insertCopies, insertMany } from '@/scripts/bench-seed';
import { indexCommitted } from './pg-search';
import { playToLine } from './play';
import { deleteEpisodes, listEpisodes } from '@/server/episodes/queries/list';
import { testCatalog } from './test/helpers';

let db: TestDb;
let sqlite: Sqlite;
beforeAll(() => {
  db = createTestDb();
  sqlite = openSqlite(db.url);
}, 120_000);
afterAll(async () => {
  sqlite?.close();
  await db?.cleanup();
});

const logOf = (id: string) => ({
  events: sqlite
    .prepare('SELECT "seq", "turn", "kind", "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"')
    .all(id),
  actions: sqlite
    .prepare('SELECT "seq", "turn", "format", "raw" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"')
    .all(id),
});
const rowOf = (id: string) =>
  sqlite
    .prepare('SELECT "seed", "player", "eventCount", "toolCalls", "reward" FROM "Episode" WHERE "id" = ?')
    .get(id) as {
    seed: number;
    player: string;
    eventCount: number;
    toolCalls: number;
    reward: number;
  };
/** An oracle episode as a record (what the bench seeds from). */
const played = (envId: 'CART' | 'PD', d: number, seed: number) =>
  playToLine({ envId, d, seed }, testCatalog(), oracleAgent, 'oracle') as unknown as EpisodeRecord;
const pending = () =>
  sqlite
    .prepare('SELECT coalesce(max("id"), 0) - (SELECT "upTo" FROM "EpisodeTextIndexed") FROM "EpisodeEvent"')
    .pluck()
    .get();

describe('bulk writes', () => {
  it('copies a stored episode’s log inside the store, with the copy’s own row, indexed by the next query', async () => {
    const store = sqliteSqlDb(sqlite);
    const rec = played('CART', 4, 3);
    const [source] = await insertMany(store, [rec]);
    const copies = await insertCopies(store, [
      { from: source, record: { ...rec, id: undefined, seed: 991, player: 'copy-a' } },
      { from: source, record: { ...rec, id: undefined, seed: 992, player: 'copy-b' } },
    ]);
    expect(copies).toHaveLength(2);
    expect(pending()).toBeGreaterThan(0);
    await indexCommitted(sqliteSqlDb(sqlite), false); // what every inspector query does first
    expect(pending()).toBe(0);
    const toolCalls = rec.events.filter((e) => e.kind === 'tool_call').length;
    expect(toolCalls).toBeGreaterThan(0);
    for (const [i, id] of copies.entries()) {
      expect(id).not.toBe(source);
      expect(logOf(id)).toEqual(logOf(source));
      expect(rowOf(id)).toEqual({ ...rowOf(source), seed: 991 + i, player: `copy-${'ab'[i]}` });
      expect(rowOf(id).toolCalls).toBe(toolCalls);
    }
    const word = (rec.events.find((e) => e.kind === 'customer_message') as unknown as { text: string }).text
      .split(/\s+/)
      .find((w) => /^[a-z]{6,}$/i.test(w))!;
    const found = (
      await listEpisodes(sqliteSqlDb(sqlite), listInputSchema.parse({ filter: { q: `"${word}"` } }))
    ).rows.map((r) => r.id);
    expect(found.sort()).toEqual([source, ...copies].sort());
  });

  it('stores nothing of a bulk write that fails', async () => {
    const store = sqliteSqlDb(sqlite);
    const before = sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get();
    const rec = played('PD', 2, 4);
    const [source] = await insertMany(store, [rec]);
    const copy = { ...rec, id: undefined };
    await expect(
      insertCopies(store, [
        { from: source, record: copy },
        { from: 'no-such-episode', record: copy },
      ]),
    ).rejects.toThrow(
      `episode "no-such-episode" has 0 events and 0 actions; its copy was given ${rec.events.length} and ${rec.actions.length}`,
    );
    expect(sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get()).toBe((before as number) + 1);
  });

  // docs/inspector.md, "SQLite transactions": every SQLite call of the inspector's store completes
  // synchronously, so a transaction whose callback awaits only its `tx` commits before the event
  // loop turns. A probe on another connection, queued before the transaction, would find the
  // write lock held if any macrotask fell inside it.
  it('commits a transaction before any macrotask runs (inserts, deletes); a callback awaiting one would hold the lock', async () => {
    const other = openSqlite(db.url);
    other.pragma('busy_timeout = 0');
    const probe = () =>
      new Promise<boolean>((resolve) =>
        setImmediate(() => {
          try {
            other.exec('BEGIN IMMEDIATE');
            other.exec('ROLLBACK');
            resolve(false);
          } catch (e) {
            resolve((e as { code?: string }).code === 'SQLITE_BUSY');
          }
        }),
      );
    const store = sqliteSqlDb(sqlite);
    try {
      let locked = probe();
      const ids = await insertMany(store, [played('CART', 2, 31), played('PD', 1, 32)]);
      expect(await locked).toBe(false);
      locked = probe();
      await insertEpisode(store, played('CART', 1, 33)); // an episode in its own transaction
      expect(await locked).toBe(false);
      locked = probe();
      expect(await deleteEpisodes(store, ids)).toBe(2);
      expect(await locked).toBe(false);
      // the control: a callback that awaits a macrotask holds the lock across it
      locked = probe();
      await store.transaction(async (tx) => {
        await tx.run('UPDATE "Episode" SET "player" = "player" WHERE 0');
        await new Promise((r) => setImmediate(r));
      });
      expect(await locked).toBe(true);
    } finally {
      other.close();
    }
  });
});
