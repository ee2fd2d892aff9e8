// The data set of the PostgreSQL parity test (pg-parity.test.ts): the same export file (real
// played episodes, spread over dates, runs and players, words PostgreSQL's parser would split,
// plus two bad lines) imported into a fresh SQLite file and into a database on the run's
// PostgreSQL server with an en-US collation. setupParity registers the hooks; the stores are
// live bindings the tests read.
import { afterAll, beforeAll, expect } from 'vitest';
import { ENV_IDS } from '@/server/engine/types';
import { testPostgres, type TestPostgres } from '@/server/env-server/test/shared-postgres';
import { pgSqlDb, type SqlDb } from '@/server/db/sql';
import { exportJsonl } from '../export';
import { listInputSchema } from '../filters';
import { importFiles } from '../import';
import { episodeIds } from '@/server/episodes/queries/list';
import { createInspectorTestDb, getTestCatalog, TEST_CATALOG_ID, type InspectorTestDb } from './helpers';

const opts = { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID };

export let pg: TestPostgres;
export let pgDb: SqlDb;
/** Where the episodes were played (the export's source). */
export let source: InspectorTestDb;
export let lite: InspectorTestDb;
export let liteDb: SqlDb;
/** The imported file's text. */
export let text: string;
export const both = () => [liteDb, pgDb] as const;

/**
 * Averages may be summed in another order: equal to 12 significant digits, and a sum that
 * cancels to zero (a mean r_eff of +x and −x) equal within 1e-12 of it.
 */
export const rounded = (v: unknown): unknown =>
  typeof v === 'number' && !Number.isInteger(v)
    ? Math.abs(v) < 1e-12
      ? 0
      : Number(v.toPrecision(12))
    : Array.isArray(v)
      ? v.map(rounded)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]))
        : v;

export function setupParity(): void {
  beforeAll(async () => {
    // en-US collation: a locale-sorting database (the inspector sorts text byte-wise on both stores)
    pg = await testPostgres('inspector', { icuLocale: 'en-US' });
    pgDb = pgSqlDb(pg.url);
    source = createInspectorTestDb();
    // every env, both agents on the same seeds (run compare has pairs), several d
    for (const [i, envId] of ENV_IDS.entries())
      for (const agent of ['oracle', 'heuristic'] as const) await source.play(envId, [2, 6, 9][i % 3], 20 + i, agent);
    const lines = (
      await exportJsonl(source.store, await episodeIds(source.store, listInputSchema.parse({})), 'episodes')
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const start = Date.parse('2026-11-02T08:00:00.000Z');
    const varied = lines.map((l, i) => ({
      ...l,
      // two episodes share a time (ties are broken by id), the rest spread over days
      createdAt: new Date(start + Math.max(i - 1, 0) * 7 * 3_600_000 + 123).toISOString(),
      runLabel: ['run-a', 'run-b', null][i % 3],
      goalRevealed: i % 5 === 0,
      // byte-wise order puts capitals first; a locale would sort "Human" between "heuristic" and "oracle"
      player: i === 3 ? 'Human' : i === 6 ? 'model:Qwen' : l.player,
    }));
    // words PostgreSQL's own text parser would split or drop (the index must hold FTS5's words)
    const tricky = varied[2] as unknown as { events: Array<{ kind: string; text?: string }> };
    // and two words of one episode, each in its own message (a search's words must meet in one event)
    const lastMessage = tricky.events.findLastIndex((e) => e.kind.endsWith('_message'));
    tricky.events = tricky.events.map((e, k) =>
      k === 0
        ? { ...e, text: `${e.text} a½z ²x Straße naïve ΣΟΦΙΑ quokka` }
        : k === lastMessage
          ? { ...e, text: `${e.text} zebrafinch` }
          : e,
    );
    // "wombat kiwi": in one message of five episodes, in two messages of two more
    for (const [i, apart] of [4, 5, 6, 7, 8, 9, 10].map((i) => [i, i >= 9] as const)) {
      const ep = varied[i] as unknown as { events: Array<{ kind: string; text?: string }> };
      const last = ep.events.findLastIndex((e) => e.kind.endsWith('_message'));
      ep.events = ep.events.map((e, k) =>
        k === 0
          ? { ...e, text: `${e.text} wombat${apart ? '' : ' kiwi'}` }
          : k === last && apart
            ? { ...e, text: `${e.text} kiwi` }
            : e,
      );
    }
    const broken = { ...varied[0], id: 'broken1', events: [{ kind: 'nonsense', turn: 0 }] };
    text = [...varied.map((l) => JSON.stringify(l)), '{not json', JSON.stringify(broken)].join('\n');
    lite = createInspectorTestDb();
    liteDb = lite.store;
    const [liteReport, pgReport] = [
      await importFiles(liteDb, [{ name: 'set.jsonl', text }], opts),
      await importFiles(pgDb, [{ name: 'set.jsonl', text }], opts),
    ];
    expect(liteReport.filter((r) => r.ok)).toHaveLength(16);
    expect(pgReport).toEqual(liteReport);
  }, 600_000);

  afterAll(async () => {
    try {
      await pgDb?.close();
      await source?.cleanup();
      await lite?.cleanup();
    } finally {
      await pg?.drop();
    }
  });
}
