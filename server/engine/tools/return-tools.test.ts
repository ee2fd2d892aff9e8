import { describe, expect, it } from 'vitest';
import { isDeniedCategory } from '../catalog/taxonomy';
import type { Product } from '../catalog/types';
import { Rng } from '../random';
import { callTool } from '../testing/call-tool';
import { testCatalog } from '../testing/catalog-fixture';
import { makeLine, newOrder, setOrderStatus, type Order } from '../world/orders';
import { createWorld, type WorldState } from '../world/state';

const catalog = testCatalog();
const TODAY = '2026-06-30';

const call = callTool;

function productsIn(dept: string, n: number, minStock = 5): Product[] {
  const out: Product[] = [];
  for (let i = 0; i < catalog.size && out.length < n; i++) {
    const p = catalog.at(i);
    if (p.department === dept && p.stockQty >= minStock && (out.length === 0 || p.category === out[0].category))
      out.push(p);
  }
  return out;
}
const [chargerA, chargerB] = productsIn('electronics', 2);
const [grocery] = productsIn('grocery', 1);
const [shirt] = productsIn('clothing', 1);
const denied = (() => {
  for (let i = 0; i < catalog.size; i++) if (isDeniedCategory(catalog.at(i).category)) return catalog.at(i);
  throw new Error('no denied product');
})();

/** One DELIVERED order: line 1 electronics (15-day window), line 2 grocery, line 3 clothing (30 days). */
function setup(deliveredDaysAgo: number): { world: WorldState; order: Order } {
  const world = createWorld(TODAY);
  const lines = [
    makeLine('ORD-20000', 1, chargerA, 1),
    makeLine('ORD-20000', 2, grocery, 2),
    makeLine('ORD-20000', 3, shirt, 1),
  ];
  const order = newOrder({
    order_id: 'ORD-20000',
    placed_date: TODAY,
    shipping_address_id: 'addr_1',
    payment_method_id: 'pm_1',
    lines,
  });
  setOrderStatus(order, 'DELIVERED', TODAY, new Rng(1), deliveredDaysAgo);
  world.orders.push(order);
  return { world, order };
}

describe('return.check_eligibility', () => {
  it('reports window, days since purchase and delivery, methods, fees and reason', () => {
    const { world } = setup(15);
    const { result, seen } = call(world, 'return.check_eligibility', {
      order_id: 'ORD-20000',
      line_id: 'ORD-20000-L1',
    });
    expect(result).toMatchObject({
      eligible: true,
      window_days: 15,
      days_since_delivery: 15,
      methods: ['mail', 'in_store', 'pickup'],
      fees: { mail: 5.99, in_store: 0, pickup: 0 },
    });
    expect(result.days_since_purchase).toBeGreaterThan(15);
    expect(seen).toEqual([chargerA.id]);
    expect(
      call(setup(16).world, 'return.check_eligibility', { order_id: 'ORD-20000', line_id: 'ORD-20000-L1' }).result
        .eligible,
    ).toBe(false);
    expect(
      call(world, 'return.check_eligibility', { order_id: 'ORD-20000', line_id: 'ORD-20000-L2' }).result,
    ).toMatchObject({ eligible: false, window_days: 0 });
  });

  it('errors on an unknown order or a line of another order', () => {
    const { world } = setup(3);
    expect(call(world, 'return.check_eligibility', { order_id: 'ORD-1', line_id: 'x' }).error).toBe(
      'unknown order_id "ORD-1" (see order.list)',
    );
    expect(call(world, 'return.check_eligibility', { order_id: 'ORD-20000', line_id: 'ORD-20000-L9' }).error).toBe(
      'order ORD-20000 has no line "ORD-20000-L9" (its lines: ORD-20000-L1, ORD-20000-L2, ORD-20000-L3)',
    );
  });
});

describe('return.initiate', () => {
  it('records a return; mail costs 5.99 (free for a defective item), in store is free; the restocking fee is deducted; a line cannot be returned twice', () => {
    const { world } = setup(3);
    const { result } = call(
      world,
      'return.initiate',
      { order_id: 'ORD-20000', line_id: 'ORD-20000-L1', reason_code: 'changed_mind', method: 'mail' },
      2,
    );
    expect(result).toMatchObject({
      return_id: 'RET-0001',
      product_id: chargerA.id,
      fee: 5.99,
      // an opened electronics item: the policy's 15% restocking fee (RET-22) is deducted too
      restocking_fee: Math.round(chargerA.price * 15) / 100,
      refund_amount: Math.max(0, Math.round((chargerA.price * 0.85 - 5.99) * 100) / 100),
      status: 'INITIATED',
      created_date: TODAY,
    });
    expect(result.turn).toBeUndefined();
    expect(world.returns).toHaveLength(1);
    expect(world.returns[0].turn).toBe(2);
    const again = call(world, 'return.initiate', {
      order_id: 'ORD-20000',
      line_id: 'ORD-20000-L1',
      reason_code: 'defective',
      method: 'mail',
    });
    expect(again.error).toMatch(/cannot be returned: a return or exchange was already initiated/);
    const shirtReturn = call(world, 'return.initiate', {
      order_id: 'ORD-20000',
      line_id: 'ORD-20000-L3',
      reason_code: 'too_small',
      method: 'in_store',
    });
    expect(shirtReturn.result).toMatchObject({ return_id: 'RET-0002', fee: 0, refund_amount: shirt.price });
  });

  it('an engine v1/v2 episode replays its own fees: mail 5.99 whatever the reason, no defective fees shown', () => {
    const base = { order_id: 'ORD-20000', line_id: 'ORD-20000-L1' };
    const defectiveByMail = { ...base, reason_code: 'defective', method: 'mail' };
    expect(call(setup(3).world, 'return.initiate', defectiveByMail, 1, 2).result).toMatchObject({ fee: 5.99 });
    expect(call(setup(3).world, 'return.initiate', defectiveByMail, 1, 3).result).toMatchObject({ fee: 0 });
    const v2 = call(setup(3).world, 'return.check_eligibility', base, 1, 2).result;
    expect(v2.fees).toEqual({ mail: 5.99, in_store: 0, pickup: 0 });
    expect(v2).not.toHaveProperty('fees_if_defective');
    const v3 = call(setup(3).world, 'return.check_eligibility', base, 1, 3).result;
    expect(v3.fees_if_defective).toEqual({ mail: 0, in_store: 0, pickup: 0 });
  });

  it('refuses ineligible lines with the reason (past the window, groceries)', () => {
    const { world } = setup(16);
    expect(
      call(world, 'return.initiate', {
        order_id: 'ORD-20000',
        line_id: 'ORD-20000-L1',
        reason_code: 'changed_mind',
        method: 'pickup',
      }).error,
    ).toMatch(/^line ORD-20000-L1 cannot be returned: the 15-day return window ended on/);
    expect(
      call(world, 'return.initiate', {
        order_id: 'ORD-20000',
        line_id: 'ORD-20000-L2',
        reason_code: 'changed_mind',
        method: 'pickup',
      }).error,
    ).toMatch(/grocery items are not returnable/);
    expect(world.returns).toEqual([]);
  });

  it('rejects unknown reason codes, methods and arguments', () => {
    const { world } = setup(3);
    const base = { order_id: 'ORD-20000', line_id: 'ORD-20000-L1', reason_code: 'defective', method: 'mail' };
    expect(call(world, 'return.initiate', { ...base, reason_code: 'broken' }).error).toMatch(
      /^return.initiate: argument "reason_code"/,
    );
    expect(call(world, 'return.initiate', { ...base, method: 'drone' }).error).toMatch(/argument "method"/);
    expect(call(world, 'return.initiate', { ...base, reason: 'x' }).error).toMatch(
      /unknown argument "reason" \(allowed: order_id, line_id, reason_code, method\)/,
    );
    expect(
      call(world, 'return.initiate', { order_id: 'ORD-20000', line_id: 'ORD-20000-L1', method: 'mail' }).error,
    ).toBe('return.initiate: missing required argument "reason_code"');
  });
});

describe('return.exchange', () => {
  const args = { order_id: 'ORD-20000', line_id: 'ORD-20000-L1' };
  it('swaps an eligible line for a product of the same category and records the price difference', () => {
    const { world } = setup(3);
    const { result, seen } = call(world, 'return.exchange', { ...args, new_product_id: chargerB.id }, 4);
    expect(result).toMatchObject({
      exchange_id: 'EXC-0001',
      product_id: chargerA.id,
      new_product_id: chargerB.id,
      new_variant_id: null,
      new_title: chargerB.title,
    });
    expect(result.price_difference).toBeCloseTo(chargerB.price - chargerA.price, 6);
    expect(world.exchanges[0].turn).toBe(4);
    expect(seen).toEqual([chargerA.id]); // the new product is the agent's choice echoed back, not a retrieval (issue 7.5)
  });

  it('errors: another category, unknown or restricted product, foreign variant, out of stock, ineligible line', () => {
    const { world } = setup(3);
    expect(call(world, 'return.exchange', { ...args, new_product_id: shirt.id }).error).toMatch(
      /must be for an item of the same category \(electronics\//,
    );
    expect(call(world, 'return.exchange', { ...args, new_product_id: 'nope' }).error).toBe(
      'unknown new_product_id "nope"',
    );
    expect(call(world, 'return.exchange', { ...args, new_product_id: denied.id }).error).toBe(
      `${denied.id} cannot be sold`,
    );
    expect(
      call(world, 'return.exchange', { ...args, new_product_id: chargerB.id, new_variant_id: 'x_v_color_red' }).error,
    ).toMatch(/does not belong to product/);
    world.stockOverrides.set(chargerB.id, 0);
    expect(call(world, 'return.exchange', { ...args, new_product_id: chargerB.id }).error).toBe(
      `${chargerB.id} is out of stock`,
    );
    expect(call(setup(20).world, 'return.exchange', { ...args, new_product_id: chargerB.id }).error).toMatch(
      /cannot be exchanged: the 15-day return window ended/,
    );
    expect(world.exchanges).toEqual([]);
  });
});
