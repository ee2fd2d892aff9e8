import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import type { Order, OrderLine } from './orders';
import { newOrder, setOrderStatus } from './orders';
import { checkEligibility, returnWindowDays } from './returns';
import { addDays, createWorld } from './state';

const TODAY = '2026-03-15';

function deliveredOrder(
  category: string,
  deliveredDaysAgo: number,
  status: Order['status'] = 'DELIVERED',
): { order: Order; line: OrderLine } {
  const line: OrderLine = {
    line_id: 'ORD-10001-L1',
    product_id: 'p1',
    variant_id: null,
    title: 'Acme Thing',
    category,
    qty: 1,
    unit_price: 20,
  };
  const order = newOrder({
    order_id: 'ORD-10001',
    placed_date: TODAY,
    shipping_address_id: 'addr_1',
    payment_method_id: 'pm_1',
    lines: [line],
  });
  setOrderStatus(order, status, TODAY, new Rng(7), deliveredDaysAgo);
  return { order, line };
}

describe('return windows by department', () => {
  it('electronics 15, clothing 30, furniture 30, grocery 0 (not returnable), otherwise 30', () => {
    expect(returnWindowDays('electronics/chargers')).toBe(15);
    expect(returnWindowDays('clothing/jeans')).toBe(30);
    expect(returnWindowDays('furniture/sofas')).toBe(30);
    expect(returnWindowDays('grocery/coffee')).toBe(0);
    expect(returnWindowDays('toys/puzzles')).toBe(30);
    expect(returnWindowDays('Grocery & Gourmet Food')).toBe(0);
    expect(returnWindowDays('Electronics/Headphones')).toBe(15);
  });
});

describe('eligibility: the window counts from the delivery date; day = window is the last day', () => {
  const world = createWorld(TODAY);
  for (const [category, window] of [
    ['electronics/cables', 15],
    ['clothing/hoodies', 30],
  ] as const) {
    it(`${category}: window − 1 and window are eligible, window + 1 is not`, () => {
      const at = (days: number) => {
        const { order, line } = deliveredOrder(category, days);
        return checkEligibility(world, order, line);
      };
      const before = at(window - 1);
      expect(before.eligible).toBe(true);
      expect(before.days_since_delivery).toBe(window - 1);
      expect(before.methods).toEqual(['mail', 'in_store', 'pickup']);
      expect(before.fees).toEqual({ mail: 5.99, in_store: 0, pickup: 0 });
      const last = at(window);
      expect(last.eligible).toBe(true);
      expect(last.return_by).toBe(TODAY);
      const after = at(window + 1);
      expect(after.eligible).toBe(false);
      expect(after.methods).toEqual([]);
      expect(after.reason).toMatch(new RegExp(`${window}-day return window ended on ${addDays(TODAY, -1)}`));
    });
  }

  it('days_since_purchase counts from the order date, which is before delivery', () => {
    const { order, line } = deliveredOrder('clothing/jeans', 10);
    const e = checkEligibility(world, order, line);
    expect(e.days_since_delivery).toBe(10);
    expect(e.days_since_purchase).toBeGreaterThan(10);
    expect(e.eligible).toBe(true);
  });

  it('groceries are never returnable, even the day they arrive', () => {
    const { order, line } = deliveredOrder('grocery/tea', 0);
    const e = checkEligibility(world, order, line);
    expect(e.eligible).toBe(false);
    expect(e.window_days).toBe(0);
    expect(e.reason).toMatch(/not returnable/);
  });

  it('undelivered and cancelled orders are not eligible', () => {
    for (const status of ['CONFIRMED', 'SHIPPED', 'IN_TRANSIT', 'CANCELLED'] as const) {
      const { order, line } = deliveredOrder('toys/puzzles', 3, status);
      const e = checkEligibility(world, order, line);
      expect(e.eligible).toBe(false);
      expect(e.days_since_delivery).toBeNull();
    }
  });

  it('a line with a return or exchange already initiated is not eligible again', () => {
    const w = createWorld(TODAY);
    const { order, line } = deliveredOrder('toys/puzzles', 3);
    w.exchanges.push({
      exchange_id: 'EXC-0001',
      order_id: order.order_id,
      line_id: line.line_id,
      product_id: 'p1',
      new_product_id: 'p2',
      new_variant_id: null,
      qty: 1,
      price_difference: 0,
      status: 'INITIATED',
      created_date: TODAY,
      turn: 1,
    });
    expect(checkEligibility(w, order, line)).toMatchObject({
      eligible: false,
      reason: expect.stringMatching(/already initiated/),
    });
  });
});
