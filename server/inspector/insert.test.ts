// Whole-episode writes (imports and bench seeding) through the shared SQLite rows: a copy made
// inside SQLite has the same log as its source, and every bulk write is searchable when it returns.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleAgent } from '@/server/engine';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { eventRows, prepareEpisodeRows } from '@/server/episodes/sqlite-store/rows';
import { openSqlite, sqliteInspectorDb, type Sqlite } from './db';
import { listInputSchema } from './filters';
import { createInserter, prepareEpisode, type EpisodeRecord } from './insert';
import { playToLine } from './play';
import { deleteEpisodes, listEpisodes } from './query';
import { testCatalog } from './test-helpers';
import { lastCheckpoint } from './wal-checkpoint';

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
  it('copies a stored episode’s log inside SQLite, with the copy’s own row, indexed before returning', async () => {
    const ins = createInserter(sqliteInspectorDb(sqlite));
    const rec = played('CART', 4, 3);
    const [source] = await ins.insertMany([rec]);
    const copies = await ins.insertCopies([
      { from: source, record: { ...rec, id: undefined, seed: 991, player: 'copy-a' } },
      { from: source, record: { ...rec, id: undefined, seed: 992, player: 'copy-b' } },
    ]);
    expect(copies).toHaveLength(2);
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
      await listEpisodes(sqliteInspectorDb(sqlite), listInputSchema.parse({ filter: { q: `"${word}"` } }))
    ).rows.map((r) => r.id);
    expect(found.sort()).toEqual([source, ...copies].sort());
  });

  it('stores nothing of a bulk write that fails, and leaves the page cache and FTS5 settings as they were', async () => {
    const ins = createInserter(sqliteInspectorDb(sqlite));
    const cache = sqlite.pragma('cache_size', { simple: true });
    // FTS5's pending-terms memory grows during a bulk write: its default (1 MB) again afterwards
    const ftsHash = () =>
      sqlite.prepare(`SELECT "v" FROM "EpisodeText_config" WHERE "k" = 'hashsize'`).pluck().get() ?? 1048576;
    const before = sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get();
    const rec = played('PD', 2, 4);
    const [source] = await ins.insertMany([rec]);
    expect(ftsHash()).toBe(1048576);
    const copy = { ...rec, id: undefined };
    await expect(
      ins.insertCopies([
        { from: source, record: copy },
        { from: 'no-such-episode', record: copy },
      ]),
    ).rejects.toThrow(
      `episode "no-such-episode" has 0 events and 0 actions; its copy was given ${rec.events.length} and ${rec.actions.length}`,
    );
    expect(sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get()).toBe((before as number) + 1);
    expect(sqlite.pragma('cache_size', { simple: true })).toBe(cache);
    expect(ftsHash()).toBe(1048576);
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
    const store = sqliteInspectorDb(sqlite);
    const ins = createInserter(store);
    try {
      let locked = probe();
      const ids = await ins.insertMany([played('CART', 2, 31), played('PD', 1, 32)]);
      expect(await locked).toBe(false);
      locked = probe();
      await ins.insert(store, played('CART', 1, 33)); // an episode in its own transaction
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

  it('indexes its own events from their text as it writes them, after what another writer left unindexed; a failed episode leaves no index rows', async () => {
    const ins = createInserter(sqliteInspectorDb(sqlite));
    const owned = (id: string) =>
      sqlite.prepare('SELECT count(*) FROM "EpisodeTextOwner" WHERE "episodeId" = ?').pluck().get(id) as number;
    const searched = (r: EpisodeRecord) =>
      r.events.filter((e) => ['customer_message', 'agent_message', 'tool_call'].includes(e.kind)).length;
    // another writer (as the web hot path does) commits an episode and leaves its indexing for later
    const other = played('PD', 4, 8);
    const rows = prepareEpisodeRows(sqlite);
    sqlite.transaction(() => {
      rows.insertEpisode({ ...prepareEpisode(other).row, id: 'other-writer', toolCalls: undefined });
      rows.insertEvents('other-writer', eventRows(other.events, 0));
    })();
    expect(pending()).toBe(other.events.length);
    const good = played('CART', 2, 9);
    const bad = {
      ...played('CART', 2, 10),
      actions: [{ format: 'json', raw: null, turn: 0 }],
    } as unknown as EpisodeRecord;
    const stored = await ins.bulk(async (tx) => {
      const id = await ins.insert(tx, good);
      // its row and events (and their index rows) are written before its action fails
      await expect(ins.insert(tx, { ...bad, id: 'failing' })).rejects.toThrow(/NOT NULL/);
      // an id already stored fails on its row, and the stored episode keeps every row it had
      const before = logOf(id);
      await expect(ins.insert(tx, { ...bad, id })).rejects.toThrow(/UNIQUE/);
      expect(logOf(id)).toEqual(before);
      return id;
    });
    expect(pending()).toBe(0);
    expect(owned('other-writer')).toBe(searched(other));
    expect(owned(stored)).toBe(searched(good));
    expect(owned('failing')).toBe(0);
    // nothing of it is left: no row, no event, no action (its rows were deleted, not rolled back)
    for (const [table, key] of [
      ['Episode', 'id'],
      ['EpisodeEvent', 'episodeId'],
      ['EpisodeAction', 'episodeId'],
    ])
      expect(sqlite.prepare(`SELECT count(*) FROM "${table}" WHERE "${key}" = 'failing'`).pluck().get()).toBe(0);
    const toolCalls = (r: EpisodeRecord) => r.events.filter((e) => e.kind === 'tool_call').length;
    expect(rowOf('other-writer').toolCalls).toBe(toolCalls(other));
    expect(rowOf(stored).toolCalls).toBe(toolCalls(good));
    // the index holds exactly one text row per owner row (none left behind by the rolled-back episode)
    const ftsRows = sqlite
      .prepare(`SELECT count(*) FROM "EpisodeText" WHERE "EpisodeText" MATCH '"catalog" OR "cart" OR "order"'`)
      .pluck()
      .get() as number;
    const ownedHits = sqlite
      .prepare(
        `SELECT count(*) FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid WHERE "EpisodeText" MATCH '"catalog" OR "cart" OR "order"'`,
      )
      .pluck()
      .get();
    expect(ftsRows).toBeGreaterThan(0);
    expect(ownedHits).toBe(ftsRows);
  });
});

// wal-checkpoint.ts: a bulk write's commit leaves the WAL as it is; a large WAL is copied back to
// the database file by a thread afterwards, and only then does the connection checkpoint by itself again.
describe('the checkpoint after a bulk write', () => {
  const fileBytes = () => statSync(sqlite.name).size;
  const autocheckpoint = () => sqlite.pragma('wal_autocheckpoint', { simple: true });

  it('is not made by the commit: a thread copies the WAL back afterwards and empties it, then the automatic checkpoint is back', async () => {
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.pragma('wal_autocheckpoint = 7'); // any value: it must come back
    const ins = createInserter(sqliteInspectorDb(sqlite), { backgroundCheckpointFrom: 1 });
    const before = fileBytes();
    let during: unknown;
    const ids = await ins.bulk(async (tx) => {
      during = autocheckpoint();
      const out: string[] = [];
      for (const [i, env] of (['CART', 'PD', 'CART', 'PD'] as const).entries())
        out.push(await ins.insert(tx, played(env, 6, 40 + i)));
      return out;
    });
    expect(during).toBe(0); // the commit does not checkpoint (SQLite's automatic checkpoint is off)
    // (whether the database file has grown yet is a race with the thread: not asserted)
    expect(autocheckpoint()).toBe(0); // held while the thread copies: its end is handled on this thread
    const other = openSqlite(db.url);
    try {
      expect(
        other
          .prepare(`SELECT count(*) FROM "Episode" WHERE "id" IN (${ids.map(() => '?').join()})`)
          .pluck()
          .get(...ids),
      ).toBe(4);
    } finally {
      other.close();
    }
    const done = await lastCheckpoint(sqlite);
    expect(done).not.toBeNull();
    expect(done!.log).toBeGreaterThan(0);
    expect(done!.checkpointed).toBe(done!.log);
    expect(done!.walBytes).toBe(0);
    expect(fileBytes()).toBeGreaterThan(before);
    expect(autocheckpoint()).toBe(7);
    sqlite.pragma('wal_autocheckpoint = 1000');
  });

  it('leaves a WAL under the mark to the automatic checkpoint, restored at once', async () => {
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const ins = createInserter(sqliteInspectorDb(sqlite)); // the mark: 64 MB
    await ins.insertMany([played('CART', 2, 50)]);
    expect(await lastCheckpoint(sqlite)).toBeNull();
    expect(autocheckpoint()).toBe(1000);
  });
});
