import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEpisodes, episodeIds, deleteEpisodes, neighbours } from '@/server/episodes/queries/list';
import { indexCommitted } from './pg-search';
import { listInputFromParams, listInputSchema, listInputToParams } from './filters';
import { ftsQuery } from '@/server/episodes/queries/search';
import { exportJsonl } from './export';
import { importFiles, REPLAY_NOW_LIMIT } from './import';
import { createEpisodeData } from './episode-data';
import { episodeReads } from '@/server/episodes/queries';
import { createInspectorTestDb, getTestCatalog, TEST_CATALOG_ID, type InspectorTestDb } from './test/helpers';

let db: InspectorTestDb;
const ids: Record<string, string> = {};
const list = (filter: object, extra: object = {}) =>
  listEpisodes(db.store, listInputSchema.parse({ filter, ...extra }));

beforeAll(async () => {
  db = createInspectorTestDb();
  ids.cartOracle = await db.play('CART', 6, 11, 'oracle');
  ids.cartHeur = await db.play('CART', 6, 11, 'heuristic');
  ids.pd = await db.play('PD', 2, 5, 'oracle');
  ids.status = await db.play('STATUS', 8, 3, 'heuristic');
}, 60_000);
afterAll(async () => db?.cleanup());

describe('filters and sort', () => {
  it('filters by env, d range and player', async () => {
    expect((await list({ env: ['CART'] })).rows.map((r) => r.id).sort()).toEqual([ids.cartOracle, ids.cartHeur].sort());
    expect((await list({ dMin: 6 })).rows.map((r) => r.id).sort()).toEqual(
      [ids.cartOracle, ids.cartHeur, ids.status].sort(),
    );
    expect((await list({ dMin: 3, dMax: 7 })).rows.map((r) => r.id).sort()).toEqual(
      [ids.cartOracle, ids.cartHeur].sort(),
    );
    expect((await list({ player: 'oracle', env: ['CART'] })).rows.map((r) => r.id)).toEqual([ids.cartOracle]);
  });

  it('filters by pass and reward, and the two agree with the stored rows', async () => {
    const all = (await list({})).rows;
    const passed = (await list({ pass: 'pass' })).rows;
    const failed = (await list({ pass: 'fail' })).rows;
    expect(passed.length + failed.length).toBe(4);
    expect(passed.every((r) => r.isCorrect === true)).toBe(true);
    expect(failed.every((r) => r.isCorrect === false)).toBe(true);
    const top = Math.max(...all.map((r) => r.reward!));
    expect((await list({ rMin: top })).rows.every((r) => r.reward === top)).toBe(true);
  });

  it('sorts by any column, both ways, with stable ties', async () => {
    const asc = (await list({}, { sort: 'reward', dir: 'asc' })).rows.map((r) => r.reward!);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await list({}, { sort: 'd', dir: 'desc' })).rows.map((r) => r.d);
    expect(desc).toEqual([8, 6, 6, 2]);
    const page1 = (await list({}, { sort: 'd', size: 2, page: 1 })).rows.map((r) => r.id);
    const page2 = (await list({}, { sort: 'd', size: 2, page: 2 })).rows.map((r) => r.id);
    expect(new Set([...page1, ...page2]).size).toBe(4);
  });

  it('counts tool calls with the trigger', async () => {
    const row = (await list({})).rows.find((r) => r.id === ids.cartOracle)!;
    const n = db.sqlite
      .prepare(`SELECT count(*) n FROM "EpisodeEvent" WHERE "episodeId" = ? AND "kind" = 'tool_call'`)
      .get(ids.cartOracle) as { n: number };
    expect(n.n).toBeGreaterThan(0);
    expect(row.toolCalls).toBe(n.n);
  });

  it('round-trips through the URL and drops invalid values', async () => {
    const input = listInputSchema.parse({
      filter: { env: ['CART', 'PD'], dMin: 6, pass: 'fail', q: 'red mug' },
      sort: 'reward',
      dir: 'asc',
      page: 3,
    });
    expect(listInputFromParams(listInputToParams(input))).toEqual(input);
    const bad = listInputFromParams(new URLSearchParams('env=NOPE&dMin=x&sort=evil;drop&pass=fail'));
    expect(bad.filter).toEqual({ pass: 'fail' });
    expect(bad.sort).toBe('createdAt');
  });
});

describe('full-text search', () => {
  it('quotes user input so no query is an FTS syntax error', async () => {
    expect(ftsQuery('red mug*')).toBe('"red" AND "mug"*');
    // ids split as FTS5's tokenizer splits them (a phrase of their parts); words in lower case
    expect(ftsQuery('syn_000152-v "hello World" AND')).toBe('"syn 000152 v" AND "hello world" AND "and"');
    expect(ftsQuery('  ')).toBeNull();
  });

  it('pages a word matching many episodes (walking the date index) as one matching few, and caps its count', async () => {
    const sorts = ['createdAt', 'reward', 'envId'] as const;
    for (const q of ['order', 'cart', 'the'])
      for (const sort of sorts)
        for (const dir of ['asc', 'desc'] as const)
          for (const filter of [{ q }, { q, env: ['CART', 'PD'] }, { q, pass: 'pass' }]) {
            const input = listInputSchema.parse({ filter, sort, dir, size: 2 });
            const few = await listEpisodes(db.store, input);
            const all = await episodeIds(db.store, input);
            expect(few.total, q).toBe(all.length);
            expect(few.capped).toBe(false);
            const many = await listEpisodes(db.store, input, 1); // "common": more matches than the cap
            expect(many.rows.map((r) => r.id)).toEqual(few.rows.map((r) => r.id));
            expect(many.rows.map((r) => r.id)).toEqual(all.slice(0, 2));
            expect([many.total, many.capped]).toEqual(all.length > 1 ? [1, true] : [all.length, false]);
          }
    expect((await episodeIds(db.store, listInputSchema.parse({ filter: { q: 'the' } }))).length).toBeGreaterThan(2);
  });

  it('finds episodes by words of a customer message and of a tool result', async () => {
    const opening = db.sqlite
      .prepare(`SELECT json_extract("payload", '$.text') t FROM "EpisodeEvent" WHERE "episodeId" = ? AND "seq" = 0`)
      .get(ids.pd) as { t: string };
    const word = opening.t.split(/\W+/).filter((w) => w.length > 6)[0];
    expect((await list({ q: word })).rows.map((r) => r.id)).toContain(ids.pd);
    const call = db.sqlite
      .prepare(`SELECT "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? AND "kind" = 'tool_call' LIMIT 1`)
      .get(ids.cartOracle) as { payload: string };
    const productId = (JSON.parse(call.payload).args as { product_id: string }).product_id;
    expect((await list({ q: productId })).rows.map((r) => r.id)).toContain(ids.cartOracle);
    expect((await list({ q: 'zzqxnotaword' })).rows).toEqual([]);
  });

  it('two queries at once catch the index up once: neither fails, and the new episode is found', async () => {
    await indexCommitted(db.store, true);
    const id = await db.play('RETURN', 4, 7, 'oracle'); // committed, not indexed yet
    const word = (
      db.sqlite
        .prepare(`SELECT json_extract("payload", '$.text') t FROM "EpisodeEvent" WHERE "episodeId" = ? AND "seq" = 0`)
        .get(id) as { t: string }
    ).t
      .split(/\W+/)
      .filter((w) => w.length > 6)[0];
    await Promise.all([indexCommitted(db.store, true), indexCommitted(db.store, true)]);
    expect((await list({ q: word })).rows.map((r) => r.id)).toContain(id);
    await deleteEpisodes(db.store, [id]);
  });
});

describe('export and import', () => {
  it('round-trips episodes through JSONL into a fresh database unchanged', async () => {
    const all = await episodeIds(db.store, listInputSchema.parse({}));
    const text = await exportJsonl(db.store, all, 'episodes');
    expect(text.trim().split('\n')).toHaveLength(4);
    const fresh = createInspectorTestDb();
    try {
      const report = await importFiles(fresh.store, [{ name: 'set.jsonl', text }], {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(report.map((r) => r.ok)).toEqual([true, true, true, true]);
      // re-scored by replay: this engine gives the same reward it recorded
      for (const r of report) expect(r.rescoredReward).toBe(r.recordedReward);
      expect(await exportJsonl(fresh.store, all, 'episodes')).toBe(text);
      // The import indexed its own rows before it returned (nothing pending), the same rows
      // the catch-up indexed for the episodes played through the episode service.
      const pendingOf = (s: typeof db.sqlite) =>
        s.prepare('SELECT (SELECT max("id") FROM "EpisodeEvent") - "upTo" FROM "EpisodeTextIndexed"').pluck().get();
      expect(pendingOf(fresh.sqlite)).toBe(0);
      await indexCommitted(db.store, false);
      const indexOf = (s: typeof db.sqlite) =>
        s
          .prepare(
            `SELECT e."id" id, e."toolCalls" calls, (SELECT count(*) FROM "EpisodeTextOwner" o WHERE o."episodeId" = e."id") owned,
               (SELECT count(*) FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid
                 WHERE o."episodeId" = e."id" AND "EpisodeText" MATCH '"cart" OR "order" OR "return" OR "catalog"') hits
             FROM "Episode" e ORDER BY e."id"`,
          )
          .all();
      expect(indexOf(fresh.sqlite)).toEqual(indexOf(db.sqlite));
      const later = await fresh.play('PD', 2, 5, 'oracle');
      await indexCommitted(fresh.store, false); // what every inspector query does first
      const laterRow = fresh.sqlite
        .prepare(`SELECT "toolCalls" FROM "Episode" WHERE "id" = ?`)
        .pluck()
        .get(later) as number;
      expect(laterRow).toBe((await list({})).rows.find((r) => r.id === ids.pd)!.toolCalls);
      expect(
        fresh.sqlite.prepare('SELECT count(*) FROM "EpisodeTextOwner" WHERE "episodeId" = ?').pluck().get(later),
      ).toBe(db.sqlite.prepare('SELECT count(*) FROM "EpisodeTextOwner" WHERE "episodeId" = ?').pluck().get(ids.pd));
      // a second import of the same file stores nothing twice
      const again = await importFiles(fresh.store, [{ name: 'set.jsonl', text }], {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(again.every((r) => !r.ok && /already stored/.test(r.message))).toBe(true);
    } finally {
      await fresh.cleanup();
    }
  });

  it('stores large imports with a pending re-score and re-scores each when it is first opened', async () => {
    const fresh = createInspectorTestDb();
    try {
      const line = JSON.parse(await exportJsonl(db.store, [ids.cartHeur], 'episodes'));
      const text = Array.from({ length: REPLAY_NOW_LIMIT + 1 }, (_, i) =>
        JSON.stringify({ ...line, id: `copy${i}` }),
      ).join('\n');
      const report = await importFiles(fresh.store, [{ name: 'big.jsonl', text }], {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(report.every((r) => r.ok && r.rescoredReward === null && /when first opened/.test(r.message))).toBe(true);
      const data = createEpisodeData(fresh.store, getTestCatalog);
      const x = (await data.extras('copy7'))!;
      expect(x.rescored?.method).toBe('replay');
      expect(x.rescored?.reward).toBe(line.reward);
      const stored = fresh.sqlite
        .prepare(`SELECT json_extract("rescored", '$.method') m FROM "Episode" WHERE "id" = 'copy7'`)
        .get() as { m: string };
      expect(stored.m).toBe('replay');
    } finally {
      await fresh.cleanup();
    }
  }, 240_000);

  it('reports each bad line precisely and stores nothing of it', async () => {
    const fresh = createInspectorTestDb();
    try {
      const good = (await exportJsonl(db.store, [ids.pd], 'episodes')).trim();
      const broken = JSON.parse(good);
      broken.id = 'other1';
      broken.events[1] = { kind: 'nonsense', turn: 1 };
      const text = [good, '{not json', JSON.stringify(broken), '{"hello":1}', '5', '"text"'].join('\n');
      const report = await importFiles(fresh.store, [{ name: 'mixed.jsonl', text }], {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(report.map((r) => [r.line, r.ok])).toEqual([
        [1, true],
        [2, false],
        [3, false],
        [4, false],
        [5, false],
        [6, false],
      ]);
      expect(report[1].message).toMatch(/^not JSON/);
      expect(report[2].message).toMatch(/events\.1\.kind/);
      // JSON that is not an object is reported, not a crash of the whole import
      for (const r of report.slice(3)) expect(r.message).toMatch(/unknown line/);
      const n = fresh.sqlite
        .prepare('SELECT (SELECT count(*) FROM "Episode") e, (SELECT count(*) FROM "EpisodeEvent") v')
        .get() as { e: number; v: number };
      expect(n.e).toBe(1);
      expect(n.v).toBe(JSON.parse(good).events.length);
    } finally {
      await fresh.cleanup();
    }
  });

  it('exports chat messages for SFT without the hidden goal', async () => {
    const chat = JSON.parse(await exportJsonl(db.store, [ids.cartOracle], 'chat'));
    expect(chat.messages[0].role).toBe('system');
    expect(chat.messages[1].role).toBe('user');
    expect(chat.messages.filter((m: { role: string }) => m.role === 'assistant').length).toBe(
      (await list({})).rows.find((r) => r.id === ids.cartOracle)!.turn,
    );
    const goal = db.sqlite.prepare('SELECT "hiddenGoal" FROM "Episode" WHERE "id" = ?').get(ids.cartOracle) as {
      hiddenGoal: string;
    };
    const summary = JSON.parse(goal.hiddenGoal).summary.join(' ');
    expect(JSON.stringify(chat.messages)).not.toContain(summary);
    // what a JSON-mode model is sent at the table: its system prompt and observations, then the actions as stored
    expect(chat.messages[0].content).toMatch(/\[gym\] env=CART T_max=\d+ B_tool=\d+$/);
    expect(Object.keys(JSON.parse(chat.messages[1].content))).toEqual(['customer_message', 'tool_results']);
    const stored = db.sqlite
      .prepare('SELECT "raw" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"')
      .all(ids.cartOracle) as Array<{ raw: string }>;
    const sent = chat.messages.filter((m: { role: string }) => m.role === 'assistant');
    expect(sent.map((m: { content: string }) => m.content)).toEqual(stored.map((a) => a.raw));
    expect(chat.messages.at(-1).role).toBe('assistant'); // the episode ended: no observation after its last action
  });

  it('imports an OpenAI chat transcript and re-scores it by replay', async () => {
    const fresh = createInspectorTestDb();
    try {
      const chat = await exportJsonl(db.store, [ids.pd], 'chat');
      // convert our SFT lines to OpenAI tool-call form
      const src = JSON.parse(chat);
      const messages = src.messages.map((m: { role: string; content: string }) => {
        if (m.role !== 'assistant') return m;
        const a = JSON.parse(m.content);
        const calls = a.tool_calls.map((c: { name: string; args: unknown }, i: number) => ({
          id: `c${i}`,
          type: 'function',
          function: { name: c.name.replace('.', '_'), arguments: JSON.stringify(c.args) },
        }));
        if (a.answer)
          calls.push({
            id: 'ans',
            type: 'function',
            function: { name: 'answer', arguments: JSON.stringify(a.answer) },
          });
        return { role: 'assistant', content: a.assistant_message, tool_calls: calls };
      });
      const line = JSON.stringify({ messages, metadata: src.metadata });
      const [r] = await importFiles(fresh.store, [{ name: 'openai.jsonl', text: line }], {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(r.ok).toBe(true);
      expect(r.rescoredReward).toBe(src.metadata.reward);
      const noEnv = await importFiles(
        fresh.store,
        [{ name: 'x.jsonl', text: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) }],
        { getCatalog: getTestCatalog, defaultCatalogId: TEST_CATALOG_ID },
      );
      expect(noEnv[0].message).toMatch(/metadata\.env_id must name the environment/);
    } finally {
      await fresh.cleanup();
    }
  });

  it('imports the 32 reference traces with their recorded reward and a re-score', async () => {
    const dir = path.resolve(__dirname, '../../fixtures/reference-traces');
    const files = readdirSync(dir).map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8') }));
    const fresh = createInspectorTestDb();
    try {
      const report = await importFiles(fresh.store, files, {
        getCatalog: getTestCatalog,
        defaultCatalogId: TEST_CATALOG_ID,
      });
      expect(report).toHaveLength(32);
      expect(report.filter((r) => !r.ok)).toEqual([]);
      const byFile = Object.fromEntries(report.map((r) => [r.file, r]));
      // values from the README table
      expect(byFile['episode_000005_CART_d0_s1.json'].recordedReward).toBe(0.8999999977499998);
      expect(byFile['episode_000013_BUNDLE_d0_s1.json'].recordedReward).toBe(-0.7);
      // PD d=6 oracle: 2 turns, no customer-caused turn. Reference r_eff = 1 − 2·1/(7−1) → 0.85;
      // revision 2 uses T_ref = 4: r_eff = 1 − 2·1/3 = 1/3 → 0.75 + 0.15/3 = 0.8
      expect(byFile['episode_000002_PD_d6_s1.json'].recordedReward).toBe(0.85);
      expect(byFile['episode_000002_PD_d6_s1.json'].rescoredReward).toBeCloseTo(0.8, 12);
      // RETURN d=0 oracle: 3 turns, both replies "clarify" but each followed a successful tool
      // call, so rev. 2 counts them: T_eff 3 → r_eff = 1 − 2·2/3 = −1/3 → 0.75 − 0.05 = 0.7
      expect(byFile['episode_000007_RETURN_d0_s1.json'].recordedReward).toBe(0.9);
      expect(byFile['episode_000007_RETURN_d0_s1.json'].rescoredReward).toBeCloseTo(0.7, 12);
      // the list names the part that differs (only the efficiency term, as above)
      const rows = (await listEpisodes(fresh.store, listInputSchema.parse({ filter: {}, size: 100 }))).rows;
      const row = (file: string) => rows.find((r) => r.id === byFile[file].id)!;
      expect(row('episode_000002_PD_d6_s1.json').rescoredDiffers).toBe('total,rEff');
      expect(row('episode_000005_CART_d0_s1.json').rescoredReward).toBe(0.8999999977499998);
      expect(row('episode_000005_CART_d0_s1.json').rescoredDiffers).toBeNull();
      const steps = fresh.sqlite
        .prepare(`SELECT "turn", "toolCalls", "player" FROM "Episode" WHERE "id" = ?`)
        .get(byFile['episode_000007_RETURN_d0_s1.json'].id) as { turn: number; toolCalls: number; player: string };
      expect(steps).toEqual({ turn: 3, toolCalls: 2, player: 'reference:oracle' });
    } finally {
      await fresh.cleanup();
    }
  });
});

describe('world at a turn', () => {
  it('replays the cart as it was after each turn', async () => {
    const data = createEpisodeData(db.store, getTestCatalog);
    const events = await episodeReads(db.store).events(ids.cartOracle);
    const last = events.reduce((m, e) => Math.max(m, e.turn), 0);
    const cartLines = async (t: number) =>
      ((await data.worldAt(ids.cartOracle, t))!.world as { cart: { lines: unknown[] } }).cart.lines.length;
    expect(await cartLines(0)).toBe(0);
    // each turn's cart equals the last cart a cart tool returned up to that turn
    for (let t = 1; t <= last; t++) {
      const cartCalls = events.filter(
        (e) => e.kind === 'tool_call' && e.turn <= t && e.error === null && e.name.startsWith('cart.'),
      );
      const lastCart = cartCalls.length
        ? (cartCalls[cartCalls.length - 1] as { result: { lines: unknown[] } }).result.lines.length
        : 0;
      expect(await cartLines(t)).toBe(lastCart);
    }
    expect((await data.worldAt(ids.cartOracle, 1))!.source).toBe('replay');
  });
});

describe('navigation and delete', () => {
  it('gives the neighbours of an episode in the list order, then deletes with its index rows', async () => {
    const input = listInputSchema.parse({ sort: 'd', dir: 'desc' });
    const order = await episodeIds(db.store, input);
    expect(await neighbours(db.store, input, order[1])).toEqual({ prev: order[0], next: order[2] });
    const eventIds = (
      db.sqlite.prepare(`SELECT "id" FROM "EpisodeEvent" WHERE "episodeId" = ?`).all(ids.status) as Array<{
        id: number;
      }>
    ).map((r) => r.id);
    const indexed = () =>
      (
        db.sqlite.prepare(`SELECT count(*) n FROM "EpisodeText" WHERE rowid IN (${eventIds.join(',')})`).get() as {
          n: number;
        }
      ).n;
    expect(indexed()).toBeGreaterThan(0);
    expect(await deleteEpisodes(db.store, [ids.status])).toBe(1);
    expect(indexed()).toBe(0);
    expect((await list({})).rows.map((r) => r.id)).not.toContain(ids.status);
    const left = db.sqlite.prepare(`SELECT count(*) n FROM "EpisodeEvent" WHERE "episodeId" = ?`).get(ids.status) as {
      n: number;
    };
    expect(left.n).toBe(0);
    expect((await list({})).total).toBe(3);
  });
});
