// The inspector on PostgreSQL gives what it gives on SQLite. The same export file
// (pg-parity-fixture.ts) is imported into a fresh SQLite file and into a database on a real
// PostgreSQL server (the run's shared one, env-server/test/shared-postgres.ts, migrated with the
// committed PostgreSQL migrations), and every inspector read is compared: list with each
// filter, each sort both ways and pages; full-text search; charts; run compare; facets; the
// replay's per-turn data; export; delete. An episode written on PostgreSQL by the episode
// service (Prisma, not the inspector) is found by search too. Needs PostgreSQL's binaries:
// without them this suite is skipped, which the summary counts as a failure and names.
import { describe, expect, it } from 'vitest';
import { createEpisode, oracleAgent } from '@/server/engine';
import type { EnvId } from '@/server/engine/types';
import { createPrismaClient, type PrismaClient } from '@/server/db';
import { createEpisodeService } from '@/server/episodes/service';
import { findPostgresBin } from '@/server/env-server/test/postgres';
import { both, lite, liteDb, pg, pgDb, rounded, setupParity, text } from './test/pg-parity-fixture';
import { facets } from './index';
import { outcomeAggregates } from '@/server/episodes/queries/list';
import { compareRuns } from './compare';
import { sqlDbFor, type SqlDb } from '@/server/db/sql';
import { createEpisodeData } from './episode-data';
import { exportJsonl } from './export';
import { SORT_COLUMNS, listInputSchema, type EpisodeFilter } from './filters';
import { insertEpisode, type EpisodeRecord } from './insert';
import { insertCopies } from '@/scripts/bench-seed';
import { deleteEpisodes, episodeIds, listEpisodes, neighbours } from '@/server/episodes/queries/list';
import { tsQuery } from '@/server/episodes/queries/search';
import { getTestCatalog, TEST_CATALOG_ID, testCatalog } from './test/helpers';

const postgres = findPostgresBin();
if ('missing' in postgres) console.error(`[pg-parity] PostgreSQL inspector parity test NOT RUN: ${postgres.missing}`);

describe.skipIf('missing' in postgres)('the inspector on PostgreSQL and on SQLite', () => {
  setupParity();

  it('stores nothing of a bad line on either store', async () => {
    for (const db of both()) {
      expect(await db.get<{ n: number }>('SELECT count(*) AS "n" FROM "Episode"')).toEqual({ n: 16 });
      expect(await db.get('SELECT 1 AS "x" FROM "EpisodeEvent" WHERE "episodeId" = ?', ['broken1'])).toBeUndefined();
    }
  });

  it('runs on a database that sorts text by locale (so byte-wise order is really asked for)', async () => {
    const sorted = await pgDb.all<{ w: string }>(
      `SELECT w FROM (VALUES ('heuristic'), ('Human'), ('oracle')) AS t(w) ORDER BY w`,
    );
    expect(sorted.map((r) => r.w)).toEqual(['heuristic', 'Human', 'oracle']);
  });

  it('lists the same rows for every filter, every sort both ways, and pages', async () => {
    const all = await listEpisodes(liteDb, listInputSchema.parse({}));
    const ids = all.rows.map((r) => r.id);
    const filters: EpisodeFilter[] = [
      {},
      { env: ['CART', 'PD', 'JOURNEY'] },
      { dMin: 6 },
      { dMin: 3, dMax: 7 },
      { rMin: 0.5 },
      { rMax: 0 },
      { pass: 'pass' },
      { pass: 'fail' },
      { pass: 'active' },
      { term: ['answered'] },
      { player: 'oracle' },
      { player: 'Human' },
      { run: 'run-a' },
      { run: 'import:run-b' },
      { catalog: TEST_CATALOG_ID },
      { origin: 'engine' },
      { revealed: 'yes' },
      { revealed: 'no' },
      { from: '2026-11-03', to: '2026-11-04' },
      { to: '2026-11-02' },
      { env: ['CART'], pass: 'fail', dMin: 6 },
    ];
    let nonEmpty = 0;
    for (const filter of filters)
      for (const sort of SORT_COLUMNS)
        for (const dir of ['asc', 'desc'] as const) {
          const input = listInputSchema.parse({ filter, sort, dir, size: 5, page: 2 });
          const [a, b] = [await listEpisodes(liteDb, input), await listEpisodes(pgDb, input)];
          expect(b, JSON.stringify(input)).toEqual(a);
          const order = listInputSchema.parse({ filter, sort, dir });
          expect(await episodeIds(pgDb, order)).toEqual(await episodeIds(liteDb, order));
          if (a.total > 0) nonEmpty++;
        }
    // every filter but `active` (all episodes are finished) matches something
    expect(nonEmpty).toBe((filters.length - 1) * SORT_COLUMNS.length * 2);
    expect(all.total).toBe(16);
    // byte-wise: "Human" before "heuristic"
    const byPlayer = (await listEpisodes(pgDb, listInputSchema.parse({ sort: 'player', dir: 'asc', size: 50 }))).rows;
    expect(byPlayer.findIndex((r) => r.player === 'Human')).toBeLessThan(
      byPlayer.findIndex((r) => r.player === 'heuristic'),
    );
    const input = listInputSchema.parse({ sort: 'reward' });
    expect(await neighbours(pgDb, input, ids[4])).toEqual(await neighbours(liteDb, input, ids[4]));
  });

  it('finds the same episodes by full-text search', async () => {
    const { productId } = lite.sqlite
      .prepare(
        `SELECT json_extract("payload", '$.args.product_id') AS "productId" FROM "EpisodeEvent"
         WHERE "kind" = 'tool_call' AND json_extract("payload", '$.args.product_id') IS NOT NULL LIMIT 1`,
      )
      .get() as { productId: string };
    const opening = (
      lite.sqlite
        .prepare(
          `SELECT json_extract("payload", '$.text') AS t FROM "EpisodeEvent" WHERE "kind" = 'customer_message' LIMIT 1`,
        )
        .get() as { t: string }
    ).t;
    const words = opening.split(/\W+/).filter((w) => w.length > 5);
    const queries = [
      productId,
      productId.toUpperCase(),
      words[0],
      `${words[0]} ${words[1]}`,
      `"${words[0]} ${words[1]}"`,
      `${words[0].slice(0, 4)}*`,
      'cart',
      'order status',
      'catalog.search',
      'zzqxnotaword',
      '"" * -',
      'a½z',
      '²x',
      'STRASSE',
      'straße',
      'naive',
      'σοφια',
      'quokka zebrafinch',
      '"quokka zebrafinch"',
      'zebrafinch',
      'quokka a½z',
    ];
    let found = 0;
    for (const q of queries)
      for (const filter of [{ q }, { q, pass: 'fail' as const }, { q, env: ['CART' as const] }]) {
        const input = listInputSchema.parse({ filter, size: 50 });
        const [a, b] = [await listEpisodes(liteDb, input), await listEpisodes(pgDb, input)];
        expect(
          b.rows.map((r) => r.id),
          q,
        ).toEqual(a.rows.map((r) => r.id));
        expect(b.total).toBe(a.total);
        found += a.total;
      }
    expect(found).toBeGreaterThan(20);
    expect((await listEpisodes(pgDb, listInputSchema.parse({ filter: { q: productId } }))).total).toBeGreaterThan(0);
    expect((await listEpisodes(pgDb, listInputSchema.parse({ filter: { q: 'zzqxnotaword' } }))).total).toBe(0);
    for (const q of ['a½z', '²x', 'straße', 'naive', 'σοφια', 'quokka', 'zebrafinch', 'quokka a½z'])
      expect((await listEpisodes(pgDb, listInputSchema.parse({ filter: { q } }))).total, q).toBe(1);
    // past the count's cap the page is found in sort order (date and reward indexes; several
    // words: only the page's candidates checked inside one event): the same rows, as SQLite's
    let rejected = 0;
    for (const q of ['cart', 'order status', 'catalog.search', 'wombat kiwi'])
      for (const sort of ['createdAt', 'reward', 'turn'] as const)
        for (const dir of ['asc', 'desc'] as const)
          for (const filter of [{ q }, { q, dMin: 6 }]) {
            const cap = 2;
            const input = listInputSchema.parse({ filter, sort, dir, size: 2, page: 2 });
            const [capped, whole] = [await listEpisodes(pgDb, input, cap), await listEpisodes(pgDb, input)];
            const label = `${JSON.stringify(filter)} ${sort} ${dir}`;
            expect(capped.capped && capped.rows.length > 0, label).toBe(true);
            expect(capped.rows, label).toEqual(whole.rows);
            expect(capped.rows, label).toEqual((await listEpisodes(liteDb, input, cap)).rows);
            if (sort === 'createdAt' && dir === 'desc' && !('dMin' in filter)) {
              const withWords = await pgDb.get<{ n: number }>(
                `SELECT count(*) AS "n" FROM "EpisodeSearchDoc" WHERE "doc" @@ replace(?, '<->', '&')::tsquery`,
                [tsQuery(q)],
              );
              rejected += withWords!.n - (await listEpisodes(pgDb, listInputSchema.parse({ filter: { q } }))).total;
            }
          }
    expect(rejected, 'episodes with the words only in different events (the check rejects them)').toBeGreaterThan(0);
    // PostgreSQL reads one row per episode; its words in two different events are not a match
    expect((await listEpisodes(pgDb, listInputSchema.parse({ filter: { q: 'quokka zebrafinch' } }))).total).toBe(0);
  });

  it('copies stored episodes inside either store (bench seeding): the same rows, searchable at once', async () => {
    const lines = new Map(
      text
        .split('\n')
        .slice(0, 16)
        .map((l) => JSON.parse(l) as EpisodeRecord & { id: string })
        .map((l) => [l.id, l]),
    );
    const [a, b] = await episodeIds(liteDb, listInputSchema.parse({ sort: 'toolCalls', dir: 'desc' }));
    // a source written without a search since: its events are still queued on PostgreSQL, and so are its copies'
    const fresh = { ...lines.get(b)!, id: 'fresh-src', player: 'source', runLabel: 'fresh' };
    lines.set(fresh.id, fresh);
    const copy = (from: string, id: string, day: number) => ({
      from,
      record: { ...lines.get(from)!, id, player: 'copier', createdAt: `2026-12-0${day}T10:00:00.000Z` },
    });
    const copies = [
      copy(a, 'copy-a1', 1),
      copy(a, 'copy-a2', 2),
      copy(b, 'copy-b1', 3),
      copy('fresh-src', 'copy-f1', 4),
    ];
    const deleted: number[] = [];
    try {
      for (const db of both()) {
        await insertEpisode(db, fresh);
        expect(await insertCopies(db, copies)).toEqual(['copy-a1', 'copy-a2', 'copy-b1', 'copy-f1']);
        const short = { from: a, record: { ...lines.get(a)!, id: 'copy-bad', events: lines.get(a)!.events.slice(1) } };
        await expect(insertCopies(db, [short])).rejects.toThrow(
          `episode "${a}" has ${lines.get(a)!.events.length} events and ${lines.get(a)!.actions.length} actions; its copy was given ${lines.get(a)!.events.length - 1} and ${lines.get(a)!.actions.length}`,
        );
        expect(await db.get('SELECT 1 AS "x" FROM "Episode" WHERE "id" = ?', ['copy-bad'])).toBeUndefined();
      }
      const log = (db: SqlDb, id: string) =>
        db.all(`SELECT "seq", "turn", "kind", "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"`, [
          id,
        ]);
      const acts = (db: SqlDb, id: string) =>
        db.all(`SELECT "seq", "turn", "format", "raw" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"`, [id]);
      for (const [from, id] of [
        [a, 'copy-a2'],
        [b, 'copy-b1'],
        ['fresh-src', 'copy-f1'],
      ]) {
        expect(await log(pgDb, id)).toEqual(await log(pgDb, from));
        expect(await acts(pgDb, id)).toEqual(await acts(pgDb, from));
        expect(await log(pgDb, id)).toEqual(await log(liteDb, id));
      }
      const mine = listInputSchema.parse({ filter: { player: 'copier' }, sort: 'createdAt', dir: 'asc' });
      const listed = await listEpisodes(pgDb, mine);
      expect(listed).toEqual(await listEpisodes(liteDb, mine));
      expect(listed.rows.map((r) => [r.id, r.seed, r.toolCalls])).toEqual(
        copies.map((c) => [
          c.record.id,
          c.record.seed,
          lines.get(c.from === 'fresh-src' ? b : c.from)!.events.filter((e) => e.kind === 'tool_call').length,
        ]),
      );
      const productOf = (id: string) =>
        (
          lines
            .get(id)!
            .events.find(
              (e) => e.kind === 'tool_call' && typeof e.args === 'object' && e.args !== null && 'product_id' in e.args,
            ) as { args: { product_id: string } } | undefined
        )?.args.product_id ?? 'cart';
      for (const q of ['cart', 'order status', 'catalog.search', productOf(a), productOf(b), '"quokka zebrafinch"'])
        for (const filter of [{ q, player: 'copier' }, { q }]) {
          const input = listInputSchema.parse({ filter, size: 50 });
          expect(await listEpisodes(pgDb, input), q).toEqual(await listEpisodes(liteDb, input));
        }
      const byProduct = await listEpisodes(
        pgDb,
        listInputSchema.parse({ filter: { q: productOf(b), player: 'copier' } }),
      );
      expect(byProduct.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['copy-b1', 'copy-f1']));
    } finally {
      for (const db of both()) deleted.push(await deleteEpisodes(db, ['fresh-src', ...copies.map((c) => c.record.id)]));
    }
    expect(deleted).toEqual([5, 5]);
    expect(
      await pgDb.get('SELECT 1 AS "x" FROM "EpisodeSearchDoc" WHERE "episodeId" LIKE ?', ['copy-%']),
    ).toBeUndefined();
  });

  it('draws the same charts, compares the same runs and offers the same facets', async () => {
    for (const filter of [{}, { env: ['CART' as const] }, { dMin: 6 }, { q: 'cart' }])
      expect(rounded(await outcomeAggregates(pgDb, filter))).toEqual(rounded(await outcomeAggregates(liteDb, filter)));
    const charts = await outcomeAggregates(pgDb, {});
    expect(charts.heatmap.length).toBeGreaterThan(4);
    expect(charts.componentsByD.length).toBe(3);
    for (const [a, b] of [
      [
        { by: 'player', value: 'oracle' },
        { by: 'player', value: 'heuristic' },
      ],
      [
        { by: 'run', value: 'run-a' },
        { by: 'run', value: 'run-b' },
      ],
    ] as const)
      expect(rounded(await compareRuns(pgDb, a, b))).toEqual(rounded(await compareRuns(liteDb, a, b)));
    const runs = await compareRuns(pgDb, { by: 'player', value: 'oracle' }, { by: 'player', value: 'heuristic' });
    expect(runs.cells.reduce((n, c) => n + c.pairs, 0)).toBeGreaterThan(4);
    expect(await facets(pgDb)).toEqual(await facets(liteDb));
  });

  it('gives the replay the same per-turn data and exports the same lines', async () => {
    const ids = await episodeIds(liteDb, listInputSchema.parse({}));
    const [liteData, pgData] = [createEpisodeData(liteDb, getTestCatalog), createEpisodeData(pgDb, getTestCatalog)];
    for (const id of ids.slice(0, 4)) {
      expect(await pgData.extras(id)).toEqual(await liteData.extras(id));
      expect(await pgData.worldAt(id, 1)).toEqual(await liteData.worldAt(id, 1));
      const budgets = { T_max: 10, B_tool: 5 };
      expect(await pgData.observationAt(id, 1, budgets)).toEqual(await liteData.observationAt(id, 1, budgets));
    }
    for (const kind of ['episodes', 'chat'] as const) {
      const exported = await exportJsonl(pgDb, ids, kind);
      expect(exported).toBe(await exportJsonl(liteDb, ids, kind));
      expect(exported.trim().split('\n')).toHaveLength(16);
    }
  });

  it('indexes events written by the episode service for search', async () => {
    const prisma: PrismaClient = createPrismaClient(pg.url);
    try {
      const service = createEpisodeService({ prisma, getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID });
      const config = { envId: 'CART' as EnvId, d: 4, seed: 77 };
      const view = await service.startEpisode({ ...config, player: 'oracle' });
      const twin = createEpisode(config, testCatalog());
      let obs = twin.reset().observation;
      while (!twin.done) {
        const action = oracleAgent.act(obs, twin);
        obs = twin.step(action).observation;
        await service.submitAction(view.id, action);
      }
      const added = twin.events.find((e) => e.kind === 'tool_call' && e.name === 'cart.add');
      const productId = (added as { args: { product_id: string } }).args.product_id;
      const hits = await listEpisodes(pgDb, listInputSchema.parse({ filter: { q: productId, player: 'oracle' } }));
      expect(hits.rows.map((r) => r.id)).toContain(view.id);
      expect(hits.rows.find((r) => r.id === view.id)!.toolCalls).toBe(
        twin.events.filter((e) => e.kind === 'tool_call').length,
      );
      expect(await prisma.episodeEvent.count({ where: { episodeId: view.id } })).toBe(twin.events.length);
      expect(await deleteEpisodes(pgDb, [view.id])).toBe(1);
    } finally {
      await sqlDbFor(pg.url).close();
      await prisma.$disconnect();
    }
  });

  it('deletes an episode with its search rows on both stores', async () => {
    const [victim] = await episodeIds(liteDb, listInputSchema.parse({ filter: { q: 'cart' } }));
    for (const db of both()) expect(await deleteEpisodes(db, [victim])).toBe(1);
    expect(await pgDb.get('SELECT 1 AS "x" FROM "EpisodeSearch" WHERE "episodeId" = ?', [victim])).toBeUndefined();
    const input = listInputSchema.parse({ filter: { q: 'cart' }, size: 50 });
    const [a, b] = [await listEpisodes(liteDb, input), await listEpisodes(pgDb, input)];
    expect(b).toEqual(a);
    expect(a.rows.map((r) => r.id)).not.toContain(victim);
  });

  it('rolls back a failing inner transaction alone (an episode of an import) and keeps the outer one', async () => {
    const [first, second] = await episodeIds(liteDb, listInputSchema.parse({}));
    for (const db of both()) {
      const label = (id: string) =>
        db.get<{ runLabel: string | null }>('SELECT "runLabel" FROM "Episode" WHERE "id" = ?', [id]);
      const before = await label(second);
      await db.transaction(async (tx) => {
        await tx.run(`UPDATE "Episode" SET "runLabel" = 'outer' WHERE "id" = ?`, [first]);
        await expect(
          tx.transaction(async (inner) => {
            await inner.run(`UPDATE "Episode" SET "runLabel" = 'inner' WHERE "id" = ?`, [second]);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
      });
      expect(await label(first)).toEqual({ runLabel: 'outer' });
      expect(await label(second)).toEqual(before);
      await expect(
        db.transaction(async (tx) => {
          await tx.run(`UPDATE "Episode" SET "runLabel" = 'lost' WHERE "id" = ?`, [first]);
          throw new Error('outer boom');
        }),
      ).rejects.toThrow('outer boom');
      expect(await label(first)).toEqual({ runLabel: 'outer' });
    }
  });
});
