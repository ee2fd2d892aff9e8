import { describe, expect, it } from 'vitest';
import { envKnobs } from '../difficulty';
import { Episode } from '../episode';
import { Rng } from '../random';
import { act, testCatalog, verifyContext } from '../testing';
import { generateOrderHistory } from '../world/orders';
import { createWorld } from '../world/state';
import { statusEnv, type StatusGoal } from './status';

const catalog = testCatalog();

function verifyWith(answer: Record<string, unknown>) {
  const world = createWorld('2026-05-01');
  generateOrderHistory({ catalog, world, rng: new Rng(9), count: 3 });
  const [target, other] = world.orders;
  target.status = 'IN_TRANSIT';
  other.status = 'DELIVERED';
  const goal: StatusGoal = {
    orderId: target.order_id,
    status: 'IN_TRANSIT',
    indirect: true,
    productId: target.lines[0].product_id,
    itemPhrase: 'Acme kettle',
    placedDaysAgo: 4,
    lookAlikeOrderId: null,
  };
  const ctx = verifyContext(catalog, world, 4, { turn: 2 });
  return {
    r: statusEnv.verify(goal, null, { env: 'STATUS', done: true, ...answer }, ctx),
    target,
    other,
    world,
    goal,
    ctx,
  };
}

describe('STATUS verifier: r_task = 2·(0.5·r_oid + 0.5·r_stat) − 1', () => {
  it('right order and status → 1, pass', () => {
    const { target } = verifyWith({});
    const { r } = verifyWith({ selected_order_id: target.order_id, order_status: 'IN_TRANSIT' });
    expect(r.rTask).toBe(1);
    expect(r.isCorrect).toBe(true);
    expect(r.metrics).toEqual({ rOid: 1, rStat: 1 });
  });

  it('right order, wrong status → 0, fail', () => {
    const { target } = verifyWith({});
    const { r } = verifyWith({ selected_order_id: target.order_id, order_status: 'SHIPPED' });
    expect(r.rTask).toBe(0);
    expect(r.isCorrect).toBe(false);
    // round 11: the verdict line names what failed
    expect(r.evidence.at(-1)).toEqual({
      text: 'r_task = 2·(0.5·r_oid + 0.5·r_stat) − 1 = 2·(0.5·1 + 0.5·0) − 1 = 0 → fail: r_stat = 0 (another status)',
      turns: [],
      ok: false,
      role: 'verdict',
    });
  });

  it("wrong order → −1 whatever the status (rev 3: the target's status named for another order no longer earns 0)", () => {
    const { other } = verifyWith({});
    const guessed = verifyWith({ selected_order_id: other.order_id, order_status: 'IN_TRANSIT' }).r;
    expect(guessed.rTask).toBe(-1);
    expect(guessed.evidence[1].text).toContain('another order was selected: its status does not count');
    const { r } = verifyWith({ selected_order_id: other.order_id, order_status: 'DELIVERED' });
    expect(r.rTask).toBe(-1);
    expect(r.evidence[1].text).toMatch(/answered status DELIVERED; the order is IN_TRANSIT .*→ r_stat = 0/);
    expect(r.evidence.at(-1)!.text).toBe(
      'r_task = 2·(0.5·r_oid + 0.5·r_stat) − 1 = 2·(0.5·0 + 0.5·0) − 1 = −1 → fail: r_oid = 0 (another order); r_stat = 0 (another status)',
    );
  });

  it('the items line is ✗ only when the answer is wrong and the items were never looked up', () => {
    const { target, other } = verifyWith({});
    const itemsLine = (answer: Record<string, unknown>) => verifyWith(answer).r.evidence[2];
    // nothing was shown in verifyWith's context: never looked up
    expect(itemsLine({ selected_order_id: target.order_id, order_status: 'IN_TRANSIT' })).toEqual({
      text: "the order's items were never looked up (the answer was right without them)",
      turns: [],
      ok: true,
    });
    expect(itemsLine({ selected_order_id: other.order_id, order_status: 'IN_TRANSIT' })).toEqual({
      text: "the order's items were never looked up",
      turns: [],
      ok: false,
    });
    const { goal, ctx } = verifyWith({});
    const seenCtx = { ...ctx, seen: new Map([[goal.productId, 1]]) };
    const seen = statusEnv.verify(goal, null, { selected_order_id: other.order_id, order_status: 'SHIPPED' }, seenCtx);
    expect(seen.evidence[2]).toEqual({ text: "the order's item was first shown at turn 1", turns: [1], ok: true });
  });

  it("reads the order's live status", () => {
    const { target, world, goal, ctx } = verifyWith({});
    world.orders.find((o) => o.order_id === target.order_id)!.status = 'DELIVERED';
    expect(
      statusEnv.verify(goal, null, { selected_order_id: target.order_id, order_status: 'DELIVERED' }, ctx).rTask,
    ).toBe(1);
  });
});

describe('STATUS generator', () => {
  it('the order count is 5·H_orders + 5; the target is one of them; an indirect opening never names the order id', () => {
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < 15; seed++) {
        const e = new Episode({ envId: 'STATUS', d, seed }, catalog);
        const opening = e.reset().observation.customerMessage!;
        const goal = e.hiddenGoal().data as StatusGoal;
        const orders = e.world().orders;
        expect(orders).toHaveLength(5 * e.axes.H_orders + 5);
        const target = orders.find((o) => o.order_id === goal.orderId)!;
        expect(target.status).toBe(goal.status);
        expect(target.lines.some((l) => l.product_id === goal.productId)).toBe(true);
        expect(opening.includes(goal.orderId)).toBe(!goal.indirect);
      }
    const e = new Episode({ envId: 'STATUS', d: 3, seed: 1, axisOverrides: { H_orders: 9 } }, catalog);
    e.reset();
    expect(e.world().orders).toHaveLength(50);
  });

  it('refers to the order indirectly at about the rate p_ref = σ((d−2)/1.5)', () => {
    for (const d of [0, 2, 6]) {
      let indirect = 0;
      const n = 300;
      for (let seed = 0; seed < n; seed++) {
        const e = new Episode({ envId: 'STATUS', d, seed }, catalog);
        e.reset();
        if ((e.hiddenGoal().data as StatusGoal).indirect) indirect++;
      }
      expect(Math.abs(indirect / n - envKnobs(d).pRef)).toBeLessThan(0.07);
    }
  });
});

describe('STATUS episode', () => {
  it('order.list results join the Seen set; a bad status is format_invalid', () => {
    const e = new Episode({ envId: 'STATUS', d: 6, seed: 3, axisOverrides: { H_orders: 4, p_noise: 0 } }, catalog);
    e.reset();
    const goal = e.hiddenGoal().data as StatusGoal;
    e.step(act({ tool_calls: [{ name: 'order.list', args: { days: 90 } }] }));
    expect(e.seenIds.has(goal.productId)).toBe(true);
    const r2 = e.step(
      act({ answer: { env: 'STATUS', done: true, selected_order_id: goal.orderId, order_status: 'in transit' } }),
    );
    expect(r2.termination).toBe('format_invalid');
  });

  it('the customer does not grade lookups: the same reply act after looking up the right order or a wrong one (SPEC §9)', () => {
    for (const seed of [3, 5, 8]) {
      const replyAct = (right: boolean) => {
        const e = new Episode({ envId: 'STATUS', d: 6, seed, axisOverrides: { H_orders: 4, p_noise: 0 } }, catalog);
        e.reset();
        const goal = e.hiddenGoal().data as StatusGoal;
        const order = e.world().orders.find((o) => (o.order_id === goal.orderId) === right)!;
        const words = {
          CONFIRMED: 'confirmed',
          SHIPPED: 'shipped',
          IN_TRANSIT: 'in transit',
          DELIVERED: 'delivered',
          CANCELLED: 'cancelled',
        }[order.status];
        const r = e.step(
          act({
            assistant_message: `Your order ${order.order_id} is ${words}.`,
            tool_calls: [{ name: 'order.get_status', args: { order_id: order.order_id } }],
          }),
        );
        const reply = r.events.find((x) => x.kind === 'customer_message') as { act: string; text: string };
        expect(reply.text).not.toMatch(/not the order I mean|answers my question/);
        return reply.act;
      };
      expect(replyAct(true)).toBe(replyAct(false));
    }
  });
});

describe('STATUS look-alike orders (difficulty beyond the axes)', () => {
  it('at high d another order, placed at another time, holds an item of the same kind', () => {
    let withTwin = 0;
    for (let seed = 0; seed < 30; seed++) {
      const e = new Episode({ envId: 'STATUS', d: 12, seed }, catalog);
      e.reset();
      const goal = e.hiddenGoal().data as StatusGoal;
      if (!goal.lookAlikeOrderId) continue;
      withTwin++;
      const orders = e.world().orders as Array<{
        order_id: string;
        placed_date: string;
        lines: Array<{ product_id: string }>;
      }>;
      const category = (id: string) => catalog.get(id)!.category;
      const twin = orders.find((o) => o.order_id === goal.lookAlikeOrderId)!;
      const target = orders.find((o) => o.order_id === goal.orderId)!;
      expect(
        twin.lines.some((l) => l.product_id !== goal.productId && category(l.product_id) === category(goal.productId)),
      ).toBe(true);
      expect(twin.placed_date).not.toBe(target.placed_date);
    }
    expect(withTwin).toBeGreaterThanOrEqual(24);
  });

  it('engine v2: rare at d = 0 (σ(−4) ≈ 2% of indirect references; at most 3 in 100 seeds)', () => {
    let lookAlikes = 0;
    for (let seed = 0; seed < 100; seed++) {
      const e = new Episode({ envId: 'STATUS', d: 0, seed, engineVersion: 2 }, catalog);
      e.reset();
      if ((e.hiddenGoal().data as StatusGoal).lookAlikeOrderId !== null) lookAlikes++;
    }
    expect(lookAlikes).toBeLessThanOrEqual(3);
  });

  it('engine v3: an indirect reference has H_orders look-alike orders, each placed at another time', () => {
    let indirect = 0;
    for (const d of [0, 6, 12])
      for (let seed = 0; seed < 30; seed++) {
        const e = new Episode({ envId: 'STATUS', d, seed }, catalog);
        e.reset();
        const goal = e.hiddenGoal().data as StatusGoal;
        const orders = e.world().orders;
        expect(orders).toHaveLength(5 * e.axes.H_orders + 5);
        if (!goal.indirect) {
          expect(goal.lookAlikeOrderIds).toEqual([]);
          continue;
        }
        indirect++;
        expect(goal.lookAlikeOrderIds).toHaveLength(e.axes.H_orders);
        const target = orders.find((o) => o.order_id === goal.orderId)!;
        const category = catalog.get(goal.productId)!.category;
        for (const id of goal.lookAlikeOrderIds!) {
          const o = orders.find((x) => x.order_id === id)!;
          expect(o.placed_date).not.toBe(target.placed_date);
          expect(o.lines.some((l) => l.product_id !== goal.productId && l.category === category)).toBe(true);
        }
      }
    expect(indirect).toBeGreaterThan(40);
  });
});
