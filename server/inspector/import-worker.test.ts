// A bulk import parsed in a worker thread stores and reports exactly what the same import
// parsed on its own thread does: same report line by line (errors included), same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heuristicAgent, oracleAgent } from '@/server/engine';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { openSqlite, sqliteSqlDb, type Sqlite } from '@/server/db/sql';
import { importFiles, type ImportLineReport } from './import';
import { parseInWorker } from './import-worker';
import { playToLine } from './play';
import { getTestCatalog, TEST_CATALOG_ID, testCatalog } from './test/helpers';

let dbs: Array<{ db: TestDb; sqlite: Sqlite }> = [];
beforeAll(() => {
  dbs = [0, 1].map(() => {
    const db = createTestDb();
    return { db, sqlite: openSqlite(db.url) };
  });
}, 120_000);
afterAll(async () => {
  for (const { db, sqlite } of dbs) {
    sqlite.close();
    await db.cleanup();
  }
});

const line = (envId: 'CART' | 'PD', seed: number, id: string | undefined, agent = oracleAgent) => ({
  ...playToLine({ envId, d: 2, seed }, testCatalog(), agent, 'oracle'),
  id,
});

describe('parsing in a worker thread', () => {
  it('gives the same report and the same rows as parsing on the importing thread', async () => {
    const good = [line('CART', 1, 'w1'), line('PD', 2, 'w2', heuristicAgent), line('CART', 3, undefined)];
    const broken = { ...line('PD', 4, 'w4'), events: [{ kind: 'nonsense', turn: 0 }] };
    const chat = { messages: [{ role: 'user', content: 'hi' }], metadata: { d: 1 } }; // no env_id
    const a = [good[0], '{not json', good[1], broken, chat, { hello: 1 }, good[0]].map((x) =>
      typeof x === 'string' ? x : JSON.stringify(x),
    );
    const files = [
      { name: 'a.jsonl', text: a.join('\n') },
      { name: 'b.jsonl', text: `\n${JSON.stringify(good[2])}\n\n{"format":"ecomrlve.episode"}\n` },
    ];
    const opts = { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID, rescore: false as const };
    const here = await importFiles(sqliteSqlDb(dbs[0].sqlite), files, opts);
    const fromWorker: string[] = []; // the lines the worker really parsed
    const watched: typeof parseInWorker = (fs, o) => {
      const source = parseInWorker(fs, o);
      return {
        async *linesOf(f) {
          for await (const p of source.linesOf(f)) yield (fromWorker.push(`${f.name}:${p.line}`), p);
        },
        close: source.close,
      };
    };
    const there = await importFiles(sqliteSqlDb(dbs[1].sqlite), files, { ...opts, parseInWorker: watched });

    const generated = (rs: ImportLineReport[]) => rs.find((r) => r.file === 'b.jsonl' && r.ok)!.id!;
    const same = (r: ImportLineReport, gen: string) => ({ ...r, id: r.id === gen ? 'generated' : r.id });
    expect(there.map((r) => same(r, generated(there)))).toEqual(here.map((r) => same(r, generated(here))));
    expect(here.map((r) => `${r.file}:${r.line} ${r.ok}`)).toEqual([
      'a.jsonl:1 true',
      'a.jsonl:2 false',
      'a.jsonl:3 true',
      'a.jsonl:4 false',
      'a.jsonl:5 false',
      'a.jsonl:6 false',
      'a.jsonl:7 false',
      'b.jsonl:2 true',
      'b.jsonl:4 false',
    ]);
    expect(fromWorker).toEqual(here.map((r) => `${r.file}:${r.line}`));
    expect(there[1].message).toMatch(/^not JSON/);
    expect(there[3].message).toMatch(/events\.0\.kind/);
    expect(there[4].message).toMatch(/metadata\.env_id/);
    expect(there[6].message).toBe('episode w1 is already stored; skipped');

    const rows = (s: Sqlite, gen: string) =>
      s
        .prepare(
          `SELECT CASE e."id" WHEN ? THEN 'generated' ELSE e."id" END id, e."envId", e."seed", e."reward", e."toolCalls",
             e."hiddenGoal", e."rescored", (SELECT group_concat(v."payload", '|') FROM "EpisodeEvent" v WHERE v."episodeId" = e."id") log,
             (SELECT count(*) FROM "EpisodeTextOwner" o WHERE o."episodeId" = e."id") owned
           FROM "Episode" e ORDER BY 1`,
        )
        .all(gen);
    const stored = rows(dbs[1].sqlite, generated(there));
    expect(stored).toHaveLength(3);
    expect(stored.every((r) => (r as { owned: number }).owned > 0)).toBe(true);
    expect(stored).toEqual(rows(dbs[0].sqlite, generated(here)));
  }, 60_000);

  it('fails the whole import, storing nothing, when the worker dies', async () => {
    const dying = () => ({
      // eslint-disable-next-line require-yield
      async *linesOf(): AsyncGenerator<never> {
        throw new Error('the import’s parsing worker stopped (exit code 1) before the last line');
      },
      close: async () => {},
    });
    const before = dbs[1].sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get();
    await expect(
      importFiles(
        sqliteSqlDb(dbs[1].sqlite),
        [
          {
            name: 'c.jsonl',
            text: [line('PD', 9, 'w9'), line('PD', 10, 'w10')].map((l) => JSON.stringify(l)).join('\n'),
          },
        ],
        { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID, rescore: false, parseInWorker: dying },
      ),
    ).rejects.toThrow(/parsing worker stopped/);
    expect(dbs[1].sqlite.prepare('SELECT count(*) FROM "Episode"').pluck().get()).toBe(before);
  });
});
