// An import into PostgreSQL writes each episode through the episode writer and makes them
// searchable before it returns: the same rows the drain makes from the stored events for any
// writer, the per-line report of each line alone, nothing of a failing line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heuristicAgent, oracleAgent } from '@/server/engine';
import { ENV_IDS } from '@/server/engine/types';
import { findPostgresBin } from '@/server/env-server/test/postgres';
import { testPostgres, type TestPostgres } from '@/server/env-server/test/shared-postgres';
import { pgSqlDb, type SqlDb } from '@/server/db/sql';
import { importFiles } from './import';
import { catchUpSearchIndex } from './pg-search';
import { playToLine } from './play';
import { getTestCatalog, TEST_CATALOG_ID, testCatalog } from './test/helpers';

const postgres = findPostgresBin();
const opts = { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID, rescore: false as const };
const lineOf = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ...playToLine(
      { envId: ENV_IDS[i % ENV_IDS.length], d: 2 + (i % 5), seed: 100 + i },
      testCatalog(),
      i % 2 ? heuristicAgent : oracleAgent,
      'heuristic',
    ),
    id: `imp-${i}`,
    ...extra,
  });
const count = async (db: SqlDb, sql: string, args: unknown[] = []) =>
  (await db.get<{ n: number }>(`SELECT count(*) AS "n" FROM ${sql}`, args))!.n;

describe.skipIf('missing' in postgres)('an import into PostgreSQL', () => {
  let pg: TestPostgres;
  let db: SqlDb;
  beforeAll(async () => {
    pg = await testPostgres('imports');
    db = pgSqlDb(pg.url);
  }, 120_000);
  afterAll(async () => {
    try {
      await db?.close();
    } finally {
      await pg?.drop();
    }
  });

  it('leaves the search rows and tool-call counts the drain makes for any writer', async () => {
    const lines = Array.from({ length: 8 }, (_, i) => lineOf(i));
    // two imports, one after the other
    const report = [
      ...(await importFiles(db, [{ name: 'a.jsonl', text: lines.slice(0, 4).join('\n') }], opts)),
      ...(await importFiles(db, [{ name: 'b.jsonl', text: lines.slice(4).join('\n') }], opts)),
    ];
    expect(report.map((r) => [r.ok, r.id])).toEqual(lines.map((_, i) => [true, `imp-${i}`]));
    expect(await count(db, '"EpisodeSearchPending"')).toBe(0); // nothing left to the drain
    for (const [i, l] of lines.entries()) {
      const ep = JSON.parse(l) as { events: Array<{ kind: string }>; actions: unknown[] };
      const id = `imp-${i}`;
      const tools = ep.events.filter((e) => e.kind === 'tool_call').length;
      expect(tools).toBeGreaterThan(0);
      expect(await db.get('SELECT "toolCalls", "eventCount" FROM "Episode" WHERE "id" = ?', [id])).toEqual({
        toolCalls: tools,
        eventCount: ep.events.length,
      });
      expect(await count(db, '"EpisodeEvent" WHERE "episodeId" = ?', [id])).toBe(ep.events.length);
      expect(await count(db, '"EpisodeAction" WHERE "episodeId" = ?', [id])).toBe(ep.actions.length);
    }
    const searchRows = async () => [
      await db.all('SELECT "eventId", "episodeId", "doc"::text AS "doc" FROM "EpisodeSearch" ORDER BY "eventId"'),
      await db.all('SELECT "episodeId", "doc"::text AS "doc" FROM "EpisodeSearchDoc" ORDER BY "episodeId"'),
    ];
    const written = await searchRows();
    expect(written[0].length).toBeGreaterThan(8 * 5);
    // the drain's rows for the same events (as for any other writer): the same
    await db.run('DELETE FROM "EpisodeSearch"');
    await db.run('DELETE FROM "EpisodeSearchDoc"');
    await db.run(
      `INSERT INTO "EpisodeSearchPending" ("eventId") SELECT "id" FROM "EpisodeEvent" WHERE "kind" IN ('customer_message', 'agent_message', 'tool_call')`,
    );
    expect(await catchUpSearchIndex(db)).toBe(written[0].length);
    expect(await searchRows()).toEqual(written);
  }, 60_000);

  it('gives each line the outcome it has alone, and stores nothing of a line that fails', async () => {
    const text = [
      lineOf(8),
      lineOf(9, { player: 'bad\u0000player' }), // PostgreSQL text holds no NUL: this episode cannot be stored
      lineOf(0), // stored by the test above
      lineOf(10),
      lineOf(10), // twice in the file
      '{not json',
      lineOf(11),
    ].join('\n');
    const report = await importFiles(db, [{ name: 'b.jsonl', text }], opts);
    expect(report.map((r) => [r.line, r.ok, r.id ?? null])).toEqual([
      [1, true, 'imp-8'],
      [2, false, null],
      [3, false, 'imp-0'],
      [4, true, 'imp-10'],
      [5, false, 'imp-10'],
      [6, false, null],
      [7, true, 'imp-11'],
    ]);
    expect(report[1].message).toMatch(/0x00/);
    expect(report[2].message).toBe('episode imp-0 is already stored; skipped');
    expect(report[4].message).toBe('episode imp-10 is already stored; skipped');
    for (const table of [
      '"Episode" WHERE "id"',
      '"EpisodeEvent" WHERE "episodeId"',
      '"EpisodeAction" WHERE "episodeId"',
    ])
      expect(await count(db, `${table} = 'imp-9'`), table).toBe(0);
    // the others of the batch were written one by one after the failure: stored, counted, searchable
    await catchUpSearchIndex(db);
    for (const id of ['imp-8', 'imp-10', 'imp-11']) {
      expect(await count(db, '"EpisodeSearchDoc" WHERE "episodeId" = ?', [id])).toBe(1);
      const { toolCalls, n } = (await db.get<{ toolCalls: number; n: number }>(
        `SELECT e."toolCalls", (SELECT count(*) FROM "EpisodeEvent" v WHERE v."episodeId" = e."id" AND v."kind" = 'tool_call') AS "n"
         FROM "Episode" e WHERE e."id" = ?`,
        [id],
      ))!;
      expect(toolCalls).toBe(n);
    }
    expect(await count(db, '"Episode"')).toBe(11);
  }, 60_000);
});
