// An import into PostgreSQL writes its episodes in batches, one statement per table, with the
// search rows made from the parsing worker's text (pg-batch.ts): the same rows the drain makes
// from the stored events, the same per-line report as one by one, nothing of a failing line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heuristicAgent, oracleAgent } from '@/server/engine';
import { ENV_IDS } from '@/server/engine/types';
import { findPostgresBin } from '@/server/env-server/test/postgres';
import { testPostgres, type TestPostgres } from '@/server/env-server/test/shared-postgres';
import { pgInspectorDb, type InspectorDb } from './db';
import { importFiles } from './import';
import { createInserter, prepareEpisode, type EpisodeRecord, type WriteOutcome } from './insert';
import { parseInWorker } from './import-worker';
import { tsvectorBinary } from './pg-binary';
import { catchUpSearchIndex, tsvectorLiteral, wordsLiteral } from './pg-search';
import { playToLine } from './play';
import { getTestCatalog, TEST_CATALOG_ID, testCatalog } from './test-helpers';

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
const count = async (db: InspectorDb, sql: string, args: unknown[] = []) =>
  (await db.get<{ n: number }>(`SELECT count(*) AS "n" FROM ${sql}`, args))!.n;

describe.skipIf('missing' in postgres)('an import into PostgreSQL', () => {
  let pg: TestPostgres;
  let db: InspectorDb;
  beforeAll(async () => {
    pg = await testPostgres('imports');
    db = pgInspectorDb(pg.url);
  }, 120_000);
  afterAll(async () => {
    try {
      await db?.close();
    } finally {
      await pg?.drop();
    }
  });

  it('writes the search rows and tool-call counts the triggers and the drain would', async () => {
    const lines = Array.from({ length: 8 }, (_, i) => lineOf(i));
    // half parsed in place, half by the parsing worker (which makes the search rows there)
    const report = [
      ...(await importFiles(db, [{ name: 'a.jsonl', text: lines.slice(0, 4).join('\n') }], opts)),
      ...(await importFiles(db, [{ name: 'b.jsonl', text: lines.slice(4).join('\n') }], { ...opts, parseInWorker })),
    ];
    expect(report.map((r) => [r.ok, r.id])).toEqual(lines.map((_, i) => [true, `imp-${i}`]));
    expect(await count(db, '"EpisodeSearchPending"')).toBe(0); // nothing left to the drain
    // one statement wrote every row (one command id), not one per episode (nor a trigger's update)
    for (const table of ['"Episode"', '"EpisodeEvent"', '"EpisodeSearch"'])
      expect(await count(db, `(SELECT DISTINCT cmin::text FROM ${table}) AS c`), table).toBe(1);
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

  it('writes batches one after another while the next is gathered: a failing batch alone falls back to one by one', async () => {
    const ins = createInserter(db, { pgBatchEpisodes: 2 });
    const rec = (i: number, extra: Record<string, unknown> = {}) =>
      prepareEpisode(JSON.parse(lineOf(i, { id: `pipe-${i}`, ...extra })) as EpisodeRecord);
    const episodes = [rec(20), rec(21), rec(22, { player: 'bad\u0000player' }), rec(23), rec(20), rec(24)];
    const outcomes: WriteOutcome[] = [];
    const order: number[] = [];
    await db.transaction(async (tx) => {
      const writer = ins.writer(tx);
      for (const [i, p] of episodes.entries())
        await writer.add(p, (o) => {
          outcomes[i] = o;
          order.push(i);
        });
      await writer.flush();
    });
    // batches [20, 21] [22 refused, 23] [20 again, 24]: every outcome as one by one, settled in order
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(outcomes.map((o) => (typeof o === 'string' ? o : 'error'))).toEqual([
      'stored',
      'stored',
      'error',
      'stored',
      'exists',
      'stored',
    ]);
    const stored = await db.all<{ id: string; n: number }>(
      `SELECT e."id", (SELECT count(*) FROM "EpisodeEvent" v WHERE v."episodeId" = e."id") AS "n"
       FROM "Episode" e WHERE e."id" LIKE 'pipe-%' ORDER BY e."id"`,
    );
    // the large values are compressed with LZ4, not pglz (pg-batch.ts importSettingsPg; the server has it)
    const methods = await db.all<{ m: string }>(
      `SELECT DISTINCT pg_column_compression("payload") AS "m" FROM "EpisodeEvent"
       WHERE "episodeId" LIKE 'pipe-%' AND pg_column_compression("payload") IS NOT NULL`,
    );
    expect(methods).toEqual([{ m: 'lz4' }]);
    expect(stored).toEqual(
      [20, 21, 23, 24].map((i) => ({
        id: `pipe-${i}`,
        n: episodes.find((p) => p.row.id === `pipe-${i}`)!.events.length,
      })),
    );
  }, 60_000);

  it('sends tsvectors in binary equal to what the server makes of the literals the drain writes', async () => {
    const many = Array.from({ length: 17_000 }, (_, i) => (i % 3 ? `w${i % 50}` : 'late'));
    const cases: string[][] = [
      [],
      ['blue', 'cart', 'blue', 'a', 'ab', 'abc', 'ab'],
      // UTF-8 byte order is not UTF-16's: U+FF5A sorts before U+1D49C in bytes, after it in code units
      ['ｚ', '𝒜', 'é', 'e', 'straße', 'ω', '中文', 'z'],
      Array.from({ length: 300 }, () => 'again'), // at most 256 positions a lexeme
      many, // positions past 16,383 are 16,383, and none after it
    ];
    for (const words of cases)
      for (const positions of [true, false]) {
        const literal = positions ? tsvectorLiteral(words) : wordsLiteral(words);
        const [fromText, fromBinary] = await Promise.all([
          db.get<{ v: string }>('SELECT ?::tsvector::text AS "v"', [literal]),
          db.get<{ v: string }>('SELECT ?::tsvector::text AS "v"', [Buffer.from(tsvectorBinary(words, positions))]),
        ]);
        expect(fromBinary!.v, `${words.slice(0, 8).join(' ')} ${positions}`).toBe(fromText!.v);
      }
  }, 60_000);
});
