// The episode service's lifecycle: start, steps, the stored log, the rebuild by replay after a
// restart, engine versions, axes, budgets, the world view, the list (refusals and caps:
// service-guards.test.ts).
import { expect, it } from 'vitest';
import { createEpisode, ENGINE_VERSION, replayEpisode } from '@/server/engine';
import { type EpisodeService } from './service';
import type { Action } from '@/server/engine/types';
import { expectServiceError } from './test/db';
import {
  catalog,
  db,
  describeEachStore,
  goalItems,
  searchAction,
  service,
  setupServiceTests,
  storedPayloads,
} from './test/service-kit';

setupServiceTests();

describeEachStore(() => {
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

  it('a finished episode whose stored evidence is worded differently still rebuilds; a changed number does not', async () => {
    const ep = await service.startEpisode({ envId: 'STATUS', d: 0, seed: 5 });
    await service.submitAction(ep.id, {
      assistant_message: 'Here it is.',
      tool_calls: [],
      answer: { env: 'STATUS', done: true, selected_order_id: 'nope', order_status: 'SHIPPED' },
    });
    const row = await db.prisma.episodeEvent.findFirstOrThrow({ where: { episodeId: ep.id, kind: 'reward' } });
    const edit = async (change: (reward: any) => void) => {
      const reward = JSON.parse(row.payload);
      change(reward);
      await db.prisma.episodeEvent.update({ where: { id: row.id }, data: { payload: JSON.stringify(reward) } });
      service.clearLive();
    };
    // an older engine of the same version wrote other evidence (round 11 reworded it): explanation, not reward
    await edit((r) => {
      r.breakdown.evidence.task[0].text = 'evidence as an older engine worded it';
      r.breakdown.evidence.task[0].ok = !r.breakdown.evidence.task[0].ok;
    });
    await expect(service.getWorld(ep.id)).resolves.toBeTruthy();
    await edit((r) => (r.breakdown.total += 0.5));
    await expectServiceError(service.getWorld(ep.id), 'REPLAY_MISMATCH', /diverged at event \d+ \(reward/);
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

  it('stores the rest of an episode a deferred-events server left with only some of its events', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 0, seed: 11, axisOverrides: { T_max: 20 } });
    await service.submitAction(ep.id, searchAction('lamp'));
    await service.submitAction(ep.id, searchAction('tent'));
    const all = await storedPayloads(ep.id);
    // as such a server left it: the actions and the row's count, only the opening events stored
    await db.prisma.episodeEvent.deleteMany({ where: { episodeId: ep.id, seq: { gte: 2 } } });
    service.clearLive();
    const view = await service.getEpisode(ep.id);
    expect(view.events.map((e) => JSON.stringify(e))).toEqual(all.map((e) => JSON.stringify(e)));
    expect(await storedPayloads(ep.id)).toEqual(all);
    // and it plays on from there
    expect((await service.submitAction(ep.id, searchAction('desk'))).turn).toBe(3);
  });
});
