import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEpisode, ENGINE_VERSION, replayEpisode } from '@/server/engine';
import type { Action } from '@/server/engine/types';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import { createEpisodeService, MAX_ACTION_BYTES, type EpisodeService } from './service';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDb, expectServiceError, type TestDb } from './test-db';
import { sqliteHotPathFor, type EpisodeHotPath } from './sqlite-hot-path';

// A small catalog keeps the test fast; the service does not care about its size.
const CATALOG_ID = 'synthetic-s1-n3000';
let catalog: Catalog;
let db: TestDb;
let service: EpisodeService;
const catalogOf = (id?: string) => {
  if (id !== CATALOG_ID) throw new Error(`unknown catalog ${id}`);
  return catalog;
};

beforeAll(() => {
  catalog = createSyntheticCatalog({ seed: 1, size: 3000 });
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: catalogOf, defaultCatalogId: CATALOG_ID });
}, 120_000); // migrating a fresh database is slow on a busy machine

afterAll(async () => {
  await db?.cleanup();
});

beforeEach(() => service.clearLive());

type GoalItem = { productId: string; variantId: string | null; qty: number; title: string };
const goalItems = (data: unknown) => (data as { items: GoalItem[] }).items;

const searchAction = (query: string): Action => ({
  assistant_message: 'Let me look that up.',
  tool_calls: [{ name: 'catalog.search', args: { query } }],
  answer: null,
});

async function storedPayloads(id: string) {
  const rows = await db.prisma.episodeEvent.findMany({ where: { episodeId: id }, orderBy: { seq: 'asc' } });
  rows.forEach((r, i) => expect(r.seq).toBe(i));
  return rows.map((r) => JSON.parse(r.payload));
}

// Every case runs on the Prisma store and on the SQLite hot path (prepared statements for the
// queries of every start and step): both must store and return exactly the same.
describe.each([
  ['Prisma store', false],
  ['SQLite hot path', true],
])('episode service (%s)', (_name, fast) => {
  let hotPath: EpisodeHotPath | null = null;
  beforeAll(() => {
    hotPath = fast ? sqliteHotPathFor(db.url) : null;
    service = createEpisodeService({ prisma: db.prisma, getCatalog: catalogOf, defaultCatalogId: CATALOG_ID, hotPath });
  });
  afterAll(() => hotPath?.close());

  it('start → steps → the stored events equal the engine events, and the reward is stored', async () => {
    const start = await service.startEpisode({ envId: 'CART', d: 0, seed: 24, player: 'human' });
    expect(start.status).toBe('active');
    expect(start.events[0]).toMatchObject({ kind: 'customer_message', act: 'opening', turn: 0 });
    expect(start.axes.T_max).toBe(4);
    const item = goalItems(start.hiddenGoal.data)[0];

    const actions: Action[] = [
      searchAction(item.title),
      {
        assistant_message: 'Added it to your cart.',
        tool_calls: [
          {
            name: 'cart.add',
            args: { product_id: item.productId, variant_id: item.variantId ?? undefined, quantity: item.qty },
          },
        ],
        answer: { env: 'CART', done: true },
      },
    ];
    await service.submitAction(start.id, actions[0]);
    const end = await service.submitAction(start.id, actions[1]);

    // the engine, run by hand on the same config and actions, gives the same log
    const ref = createEpisode({ envId: 'CART', d: 0, seed: 24 }, catalog);
    ref.reset();
    for (const a of actions) ref.step(a);
    expect(await storedPayloads(start.id)).toEqual(JSON.parse(JSON.stringify(ref.events)));
    expect(end.events).toEqual(JSON.parse(JSON.stringify(ref.events)));

    expect(end.status).toBe('done');
    expect(end.terminationReason).toBe('answered');
    expect(end.reward).toBeCloseTo(ref.breakdown!.total, 10);
    expect(end.isCorrect).toBe(true);
    expect(end.breakdown).toEqual(JSON.parse(JSON.stringify(ref.breakdown)));
    expect(end.turn).toBe(2);

    const stored = await service.getActions(start.id);
    expect(stored.map((a) => [a.seq, a.turn, a.format])).toEqual([
      [0, 0, 'json'],
      [1, 1, 'json'],
    ]);
    // config + stored actions rebuild the episode exactly
    const rebuilt = replayEpisode(
      { envId: 'CART', d: 0, seed: 24 },
      catalog,
      stored.map((a) => JSON.parse(a.raw)),
    );
    expect(rebuilt.breakdown!.total).toBe(end.reward);
  });

  it('raw agent text is stored verbatim; invalid text ends the episode with format_invalid', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 1, seed: 3 });
    const end = await service.submitAction(ep.id, 'I think I will just chat {not json');
    expect(end.status).toBe('done');
    expect(end.terminationReason).toBe('format_invalid');
    expect(end.reward).toBe(-1);
    const [a] = await service.getActions(ep.id);
    expect(a).toMatchObject({ format: 'text', raw: 'I think I will just chat {not json' });
  });

  it('after a restart (empty live map) the episode is rebuilt by replay and continues', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 2, seed: 11 });
    const item = goalItems(ep.hiddenGoal.data)[0];
    await service.submitAction(ep.id, JSON.stringify(searchAction(item.title)));
    expect(service.isLive(ep.id)).toBe(true);

    service.clearLive(); // the server restarted
    expect(service.isLive(ep.id)).toBe(false);
    const world = await service.getWorld(ep.id); // rebuilds (and checks) by replay
    expect(service.isLive(ep.id)).toBe(true);
    expect(world).toMatchObject({ cart: { lines: [] } });

    service.clearLive();
    const next = await service.submitAction(ep.id, {
      assistant_message: 'Added.',
      tool_calls: [
        {
          name: 'cart.add',
          args: {
            product_id: item.productId,
            ...(item.variantId ? { variant_id: item.variantId } : {}),
            quantity: item.qty,
          },
        },
      ],
      answer: null,
    });
    expect(next.turn).toBe(2);
    const ref = replayEpisode(
      { envId: 'CART', d: 2, seed: 11 },
      catalog,
      (await service.getActions(ep.id)).map((a) => (a.format === 'json' ? JSON.parse(a.raw) : a.raw)),
    );
    expect(await storedPayloads(ep.id)).toEqual(JSON.parse(JSON.stringify(ref.events)));
  });

  it('a stored log that the engine no longer reproduces is reported, not silently continued', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 5 });
    await service.submitAction(ep.id, searchAction('anything'));
    service.clearLive();
    const row = await db.prisma.episodeEvent.findFirstOrThrow({ where: { episodeId: ep.id, seq: 0 } });
    await db.prisma.episodeEvent.update({
      where: { id: row.id },
      data: { payload: row.payload.replace('"opening"', '"continue"') },
    });
    await expectServiceError(
      service.submitAction(ep.id, searchAction('more')),
      'REPLAY_MISMATCH',
      /diverged at event 0/,
    );
  });

  it('stores the engine version, and JOURNEY the env set it drew from', async () => {
    const journey = await service.startEpisode({ envId: 'JOURNEY', d: 4, seed: 3 });
    const pd = await service.startEpisode({ envId: 'PD', d: 0, seed: 3 });
    const rows = await db.prisma.episode.findMany({
      where: { id: { in: [journey.id, pd.id] } },
      orderBy: { envId: 'asc' },
    });
    expect(rows.map((r) => [r.envId, r.engineVersion, r.journeyEnvs])).toEqual([
      ['JOURNEY', ENGINE_VERSION, JSON.stringify(['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE'])],
      ['PD', ENGINE_VERSION, null],
    ]);
    // rebuilt by replay from the stored config (with its env set), it matches the stored log
    service.clearLive();
    await service.submitAction(journey.id, searchAction('anything'));
  });

  it('an episode from engine rules this engine no longer has says so, and its stored view still loads', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 5 });
    await service.submitAction(ep.id, searchAction('anything'));
    service.clearLive();
    await db.prisma.episode.update({ where: { id: ep.id }, data: { engineVersion: ENGINE_VERSION + 1 } });
    await expectServiceError(
      service.submitAction(ep.id, searchAction('more')),
      'REPLAY_UNSUPPORTED',
      new RegExp(`played under engine rules v${ENGINE_VERSION + 1}; this engine \\(v${ENGINE_VERSION}\\) replays`),
    );
    expect((await service.getEpisode(ep.id)).events.length).toBeGreaterThan(1);
  });

  it('a failure inside the step transaction writes nothing of that turn', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 8 });
    const before = await db.prisma.episode.findUniqueOrThrow({ where: { id: ep.id } });
    const eventsBefore = await db.prisma.episodeEvent.count({ where: { episodeId: ep.id } });
    // Plant a row at the seq the step's second new event will take: the action row and the
    // first new event are written inside the transaction, then the unique index fails.
    const blocker = await db.prisma.episodeEvent.create({
      data: { episodeId: ep.id, seq: eventsBefore + 1, turn: 99, kind: 'blocker', payload: '{}' },
    });
    const err = await service.submitAction(ep.id, searchAction('lamp')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String((err as Error)?.message)).toMatch(/unique constraint failed/i);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(0);
    expect(await db.prisma.episodeEvent.count({ where: { episodeId: ep.id } })).toBe(eventsBefore + 1); // the blocker only
    const after = await db.prisma.episode.findUniqueOrThrow({ where: { id: ep.id } });
    expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    expect(service.isLive(ep.id)).toBe(false); // the stepped-ahead live copy was dropped

    // Once the fault is gone the same turn goes through, rebuilt from the store.
    await db.prisma.episodeEvent.delete({ where: { id: blocker.id } });
    const ok = await service.submitAction(ep.id, searchAction('lamp'));
    expect(ok.turn).toBe(1);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(1);
  });

  it('rejects actions on finished episodes with a clear error', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 9 });
    await service.submitAction(ep.id, {
      assistant_message: 'Done.',
      tool_calls: [],
      answer: { env: 'CART', done: true },
    });
    await expectServiceError(
      service.submitAction(ep.id, searchAction('x')),
      'EPISODE_DONE',
      /is finished \(answered\)/,
    );
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(1);
  });

  it('rejects oversized action text precisely and writes nothing', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 10 });
    const big = JSON.stringify({ assistant_message: 'x'.repeat(MAX_ACTION_BYTES), tool_calls: [], answer: null });
    await expectServiceError(
      service.submitAction(ep.id, big),
      'TOO_LARGE',
      new RegExp(`is ${Buffer.byteLength(big)} bytes; the limit is 65536 bytes`),
    );
    await expectServiceError(
      service.submitAction(ep.id, { assistant_message: 'é'.repeat(40_000), tool_calls: [], answer: null }),
      'TOO_LARGE',
      /bytes as JSON; the limit is 65536/,
    );
    const view = await service.getEpisode(ep.id);
    expect(view.status).toBe('active');
    expect(view.turn).toBe(0);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(0);
  });

  it('rejects malformed input with precise errors', async () => {
    await expectServiceError(
      service.startEpisode({ envId: 'NOPE', d: 0 }),
      'BAD_INPUT',
      /unknown environment "NOPE"; available: .*CART/,
    );
    await expectServiceError(service.startEpisode({ envId: 'CART', d: -1 }), 'BAD_INPUT', /d: /);
    await expectServiceError(service.startEpisode({ envId: 'CART', d: 1.5 }), 'BAD_INPUT', /d: /);
    await expectServiceError(service.startEpisode({ envId: 'CART', d: 0, seed: -3 }), 'BAD_INPUT', /seed/);
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { nope: 1 } as never }),
      'BAD_INPUT',
      /axisOverrides: Unrecognized key: "nope"/,
    );
    // each axis has its range: the top_k 1e9 / B_tool 100 are refused before any work
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { top_k: 1e9, B_tool: 100 } }),
      'BAD_INPUT',
      /axisOverrides\.top_k: Too big: expected number to be <=200; axisOverrides\.B_tool: Too big: expected number to be <=20/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { p_oos: 1.5 } }),
      'BAD_INPUT',
      /p_oos/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, axisOverrides: { T_max: 2.5 } }),
      'BAD_INPUT',
      /T_max/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, player: 'Robert; DROP' }),
      'BAD_INPUT',
      /player/,
    );
    await expectServiceError(
      service.startEpisode({ envId: 'CART', d: 0, catalogId: 'missing' }),
      'BAD_INPUT',
      /unknown catalog/,
    );

    const ep = await service.startEpisode({ envId: 'CART', d: 0 });
    expect(ep.seed).toBeGreaterThanOrEqual(0); // random seed when none is given
    await expectServiceError(
      service.submitAction('no-such-episode', 'hi'),
      'NOT_FOUND',
      /no episode with id "no-such-episode"/,
    );
    await expectServiceError(service.submitAction('bad id!', 'hi'), 'BAD_INPUT', /invalid characters/);
    await expectServiceError(service.submitAction(ep.id, 42 as never), 'BAD_INPUT', /string\) or an action object/);
    await expectServiceError(
      service.submitAction(ep.id, { assistant_message: 'hi', tool_calls: 'catalog.search' } as never),
      'BAD_INPUT',
      /tool_calls/,
    );
    expect((await service.getEpisode(ep.id)).turn).toBe(0);
  });

  it('overrides are validated, applied and recorded as effective axes', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 2, axisOverrides: { T_max: 7, B_tool: 3 } });
    expect(ep.axes.T_max).toBe(7);
    expect(ep.budgets).toEqual({ T_max: 7, B_tool: 3 });
    expect(ep.axisOverrides).toEqual({ T_max: 7, B_tool: 3 });
    service.clearLive();
    await service.submitAction(ep.id, searchAction('hat')); // the rebuild uses the overrides too
  });

  it("budgets are the engine's: JOURNEY has T_max per sub-task", async () => {
    const ep = await service.startEpisode({ envId: 'JOURNEY', d: 0, seed: 39 });
    const engine = createEpisode({ envId: 'JOURNEY', d: 0, seed: 39 }, catalog);
    const { observation } = engine.reset();
    const subtasks = (ep.hiddenGoal.data as { subtasks: unknown[] }).subtasks.length;
    expect(ep.budgets).toEqual(observation.budgets);
    expect(ep.budgets.T_max).toBe(ep.axes.T_max * subtasks);
  });

  it("the world view has the customer's orders and the returns started in the episode", async () => {
    const ep = await service.startEpisode({ envId: 'RETURN', d: 0, seed: 1 });
    const goal = ep.hiddenGoal.data as { orderId: string; lineId: string; reasonCode: string };
    const before = await service.getWorld(ep.id);
    expect((before.orders as Array<{ order_id: string }>).map((o) => o.order_id)).toContain(goal.orderId);
    expect(before.returns).toEqual([]);
    await service.submitAction(ep.id, {
      assistant_message: 'Starting the return.',
      tool_calls: [
        {
          name: 'return.initiate',
          args: { order_id: goal.orderId, line_id: goal.lineId, reason_code: goal.reasonCode, method: 'mail' },
        },
      ],
      answer: null,
    });
    service.clearLive(); // the world of a rebuilt episode is the same
    const after = await service.getWorld(ep.id);
    expect(after.returns).toMatchObject([{ order_id: goal.orderId, line_id: goal.lineId, method: 'mail', fee: 5.99 }]);
  });

  it('serialises concurrent steps of one episode', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 4, seed: 13 });
    const results = await Promise.allSettled([
      service.submitAction(ep.id, searchAction('one')),
      service.submitAction(ep.id, searchAction('two')),
      service.submitAction(ep.id, searchAction('three')),
    ]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const actions = await service.getActions(ep.id);
    expect(actions.map((a) => a.turn)).toEqual([0, 1, 2]);
    service.clearLive();
    await service.getWorld(ep.id); // still replays cleanly
  });

  it('keeps at most maxLive episodes in memory and rebuilds the others on demand', async () => {
    const small = createEpisodeService({
      prisma: db.prisma,
      getCatalog: () => catalog,
      defaultCatalogId: CATALOG_ID,
      maxLive: 2,
      hotPath,
    });
    const a = await small.startEpisode({ envId: 'CART', d: 0, seed: 31 });
    const b = await small.startEpisode({ envId: 'CART', d: 0, seed: 32 });
    const c = await small.startEpisode({ envId: 'CART', d: 0, seed: 33 });
    expect([small.isLive(a.id), small.isLive(b.id), small.isLive(c.id)]).toEqual([false, true, true]);
    const next = await small.submitAction(a.id, searchAction('tent'));
    expect(next.turn).toBe(1);
    expect([small.isLive(a.id), small.isLive(b.id), small.isLive(c.id)]).toEqual([true, false, true]);
  });

  it('caps each episode by events and stored bytes; past a cap steps are refused and nothing is written', async () => {
    const byEvents = createEpisodeService({
      prisma: db.prisma,
      getCatalog: () => catalog,
      defaultCatalogId: CATALOG_ID,
      maxEvents: 4,
      hotPath,
    });
    const a = await byEvents.startEpisode({ envId: 'CART', d: 0, seed: 41, axisOverrides: { T_max: 20 } });
    await byEvents.submitAction(a.id, searchAction('tent')); // 1 opening + 3 events of this turn = 4
    await expectServiceError(
      byEvents.submitAction(a.id, searchAction('tent')),
      'LIMIT',
      /has reached its size cap \(4 events, \d+ bytes; caps 4 events/,
    );
    expect((await byEvents.getEpisode(a.id)).turn).toBe(1);

    const byBytes = createEpisodeService({
      prisma: db.prisma,
      getCatalog: () => catalog,
      defaultCatalogId: CATALOG_ID,
      maxBytes: 2000,
      hotPath,
    });
    const b = await byBytes.startEpisode({ envId: 'CART', d: 0, seed: 42, axisOverrides: { T_max: 20 } });
    const row = await db.prisma.episode.findUniqueOrThrow({ where: { id: b.id } });
    expect(row.storedBytes).toBeGreaterThan(0);
    await byBytes.submitAction(b.id, searchAction('tent')); // search results push it past 2,000 bytes
    expect((await db.prisma.episode.findUniqueOrThrow({ where: { id: b.id } })).storedBytes).toBeGreaterThan(2000);
    await expectServiceError(byBytes.submitAction(b.id, searchAction('tent')), 'LIMIT', /caps \d+ events, 2000 bytes/);
  });

  it('lists newest first with cursor pagination', async () => {
    const all = await service.listEpisodes({ limit: 100 });
    expect(all.items.length).toBeGreaterThanOrEqual(8);
    const created = all.items.map((e) => e.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<EpisodeService['listEpisodes']>> = await service.listEpisodes({
        cursor,
        limit: 3,
      });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((e) => e.id));
    await expectServiceError(service.listEpisodes({ limit: 0 }), 'BAD_INPUT', /limit/);
  });
});

describe('SQLite hot path', () => {
  it('reads rows exactly as Prisma does, and falls back to Prisma while another connection holds the write lock', async () => {
    const hot = sqliteHotPathFor(db.url)!;
    const fast = createEpisodeService({
      prisma: db.prisma,
      getCatalog: catalogOf,
      defaultCatalogId: CATALOG_ID,
      hotPath: hot,
    });
    const ep = await fast.startEpisode({ envId: 'STATUS', d: 2, seed: 5 });
    await fast.submitAction(ep.id, searchAction('lamp'));
    await db.prisma.episode.update({ where: { id: ep.id }, data: { revealedAt: new Date() } });
    expect(hot.getRow(ep.id)).toEqual(await db.prisma.episode.findUnique({ where: { id: ep.id } }));

    // another process holds the write lock for a moment: the hot path does not wait (that would
    // block the event loop), the step goes through Prisma, which waits for the lock
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const d = new (require('better-sqlite3'))(process.argv[1]); d.prepare('BEGIN IMMEDIATE').run();
         console.log('locked'); setTimeout(() => { d.prepare('COMMIT').run(); d.close(); }, 400);`,
        db.url.slice('file:'.length),
      ],
      { cwd: path.resolve(__dirname, '../..') },
    );
    await new Promise((r) => holder.stdout.once('data', r));
    expect(() => hot.appendStep({} as never)).toThrow(/locked|busy/i);
    expect((await fast.submitAction(ep.id, searchAction('tent'))).turn).toBe(2);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: ep.id } })).toBe(2);
    await new Promise((r) => holder.once('close', r));
    hot.close();
  });
});
