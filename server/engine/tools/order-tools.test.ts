import { describe, expect, it } from 'vitest';
import { isDeniedCategory } from '../catalog/taxonomy';
import { Rng } from '../random';
import { callTool } from '../testing/call-tool';
import { testCatalog } from '../testing/catalog-fixture';
import { generateOrderHistory } from '../world/orders';
import { createWorld, daysBetween } from '../world/state';
import { ALL_TOOLS } from './index';

const catalog = testCatalog();

const call = callTool;

const TODAY = '2026-01-20';

function worldWithHistory(count = 8, seed = 3) {
  const world = createWorld(TODAY);
  generateOrderHistory({ catalog, world, rng: new Rng(seed), count });
  return world;
}

const buyable = (() => {
  for (let i = 0; i < catalog.size; i++) {
    const p = catalog.at(i);
    if (p.stockQty >= 5 && !isDeniedCategory(p.category)) return p;
  }
  throw new Error('no buyable product');
})();

describe('the tool set', () => {
  it('registers all 17 SPEC tools, each once', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of [
      'order.list',
      'order.get_status',
      'order.checkout',
      'return.check_eligibility',
      'return.initiate',
      'return.exchange',
      'policy.search',
    ])
      expect(names).toContain(n);
    expect(names.length).toBe(17);
  });
});

describe('order.list', () => {
  it('defaults to the last 30 days, newest first, with lines, addresses and payment methods', () => {
    const world = worldWithHistory();
    const { result, seen } = call(world, 'order.list', {});
    expect(result.days).toBe(30);
    expect(result.today).toBe(TODAY);
    const expected = world.orders.filter((o) => daysBetween(o.placed_date, TODAY) <= 30);
    expect(result.orders.map((o: { order_id: string }) => o.order_id).sort()).toEqual(
      expected.map((o) => o.order_id).sort(),
    );
    for (let i = 1; i < result.orders.length; i++)
      expect(result.orders[i - 1].placed_date >= result.orders[i].placed_date).toBe(true);
    for (const o of result.orders)
      for (const l of o.lines)
        expect(Object.keys(l).sort()).toEqual(['line_id', 'product_id', 'qty', 'title', 'unit_price', 'variant_id']);
    expect(result.addresses).toEqual(world.addresses);
    expect(result.payment_methods).toEqual(world.paymentMethods);
    expect(seen).toEqual(
      result.orders.flatMap((o: { lines: { product_id: string }[] }) => o.lines.map((l) => l.product_id)),
    );
  });

  it('days: 90 shows the whole history', () => {
    const world = worldWithHistory();
    expect(call(world, 'order.list', { days: 90 }).result.orders).toHaveLength(world.orders.length);
  });

  it('rejects days outside 1–365, non-integers and unknown arguments', () => {
    const world = worldWithHistory();
    expect(call(world, 'order.list', { days: 0 }).error).toMatch(/^order.list: argument "days"/);
    expect(call(world, 'order.list', { days: 366 }).error).toMatch(/argument "days"/);
    expect(call(world, 'order.list', { days: 2.5 }).error).toMatch(/argument "days"/);
    expect(call(world, 'order.list', { day: 30 }).error).toBe('order.list: unknown argument "day" (allowed: days)');
  });
});

describe('order.get_status', () => {
  it('shows status, dates, tracking and lines', () => {
    const world = worldWithHistory();
    const o = world.orders[0];
    const { result, seen } = call(world, 'order.get_status', { order_id: o.order_id });
    expect(result).toMatchObject({
      order_id: o.order_id,
      status: o.status,
      placed_date: o.placed_date,
      eta: o.eta,
      tracking_number: o.tracking_number,
    });
    expect(seen).toEqual(o.lines.map((l) => l.product_id));
  });

  it('errors on an unknown or missing order_id', () => {
    const world = worldWithHistory();
    expect(call(world, 'order.get_status', { order_id: 'ORD-00000' }).error).toBe(
      'unknown order_id "ORD-00000" (see order.list)',
    );
    expect(call(world, 'order.get_status', {}).error).toBe('order.get_status: missing required argument "order_id"');
  });
});

describe('order.checkout', () => {
  const withCart = () => {
    const world = worldWithHistory(2);
    world.cart.push({ line_id: 'line_001', product_id: buyable.id, variant_id: null, qty: 2 });
    return world;
  };

  it('places a CONFIRMED order from the cart, empties the cart, and lists it first in order.list', () => {
    const world = withCart();
    const args = {
      shipping_address_id: world.addresses[0].address_id,
      payment_method_id: world.paymentMethods[0].payment_method_id,
    };
    const { result, error, seen } = call(world, 'order.checkout', args, 3);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({
      status: 'CONFIRMED',
      placed_date: TODAY,
      ...args,
      total: Math.round(2 * buyable.price * 100) / 100,
    });
    expect(result.lines).toEqual([
      {
        line_id: `${result.order_id}-L1`,
        product_id: buyable.id,
        variant_id: null,
        title: buyable.title,
        qty: 2,
        unit_price: buyable.price,
      },
    ]);
    expect(result.eta > TODAY).toBe(true);
    expect(world.cart).toEqual([]);
    expect(world.placedOrders).toHaveLength(1);
    expect(world.cartChanges.at(-1)).toMatchObject({ turn: 3, tool: 'order.checkout', qtyBefore: 2, qtyAfter: 0 });
    expect(seen).toEqual([buyable.id]);
    expect(call(world, 'order.list', {}).result.orders[0].order_id).toBe(result.order_id);
  });

  it('errors on an empty cart, unknown ids and stock that ran out', () => {
    const empty = worldWithHistory(2);
    const ok = { shipping_address_id: 'addr_1', payment_method_id: 'pm_1' };
    expect(call(empty, 'order.checkout', ok).error).toMatch(/cart is empty/);
    const world = withCart();
    expect(call(world, 'order.checkout', { ...ok, shipping_address_id: 'addr_9' }).error).toMatch(
      /^unknown shipping_address_id "addr_9" \(addresses: addr_1, addr_2/,
    );
    expect(call(world, 'order.checkout', { ...ok, payment_method_id: 'pm_9' }).error).toMatch(
      /^unknown payment_method_id "pm_9" \(payment methods: pm_1, pm_2/,
    );
    expect(call(world, 'order.checkout', { shipping_address_id: 'addr_1' }).error).toBe(
      'order.checkout: missing required argument "payment_method_id"',
    );
    world.stockOverrides.set(buyable.id, 1);
    expect(call(world, 'order.checkout', ok).error).toMatch(/only 1 in stock/);
    expect(world.cart).toHaveLength(1);
  });
});
