import { describe, expect, it } from 'vitest';
import { isDeniedCategory } from '../catalog/taxonomy';
import { Rng } from '../random';
import { testCatalog } from '../testing/catalog-fixture';
import {
  byNewestOrder,
  describeKey,
  generateOrderHistory,
  HISTORY_DAYS,
  ORDER_STATUSES,
  STATUS_WEIGHTS,
} from './orders';
import { createWorld, daysBetween } from './state';

const catalog = testCatalog();

describe('order history (SPEC §4)', () => {
  it('H orders of 1–5 real, non-denied lines with distinct brand+category, dated within 90 days, with consistent dates', () => {
    for (let seed = 0; seed < 60; seed++) {
      const world = createWorld('2026-02-10');
      const count = 1 + (seed % 7);
      generateOrderHistory({ catalog, world, rng: new Rng(seed), count });
      expect(world.orders).toHaveLength(count);
      expect(world.addresses.length).toBeGreaterThanOrEqual(2);
      expect(world.addresses.length).toBeLessThanOrEqual(3);
      expect(world.paymentMethods.length).toBeGreaterThanOrEqual(2);
      expect(world.paymentMethods.length).toBeLessThanOrEqual(3);
      const keys = new Set<string>();
      for (const o of world.orders) {
        expect(o.lines.length).toBeGreaterThanOrEqual(1);
        expect(o.lines.length).toBeLessThanOrEqual(5);
        const ago = daysBetween(o.placed_date, world.today);
        expect(ago).toBeGreaterThanOrEqual(0);
        expect(ago).toBeLessThanOrEqual(HISTORY_DAYS);
        expect(world.addresses.some((a) => a.address_id === o.shipping_address_id)).toBe(true);
        expect(world.paymentMethods.some((p) => p.payment_method_id === o.payment_method_id)).toBe(true);
        expect(o.total).toBeCloseTo(
          o.lines.reduce((s, l) => s + l.qty * l.unit_price, 0),
          6,
        );
        const shipped = o.status === 'SHIPPED' || o.status === 'IN_TRANSIT' || o.status === 'DELIVERED';
        expect(o.tracking_number !== null).toBe(shipped);
        if (o.status === 'DELIVERED')
          expect(o.delivered_date! <= world.today && o.delivered_date! >= o.placed_date).toBe(true);
        else expect(o.delivered_date).toBeNull();
        if (o.status === 'CANCELLED') expect(o.eta).toBeNull();
        else expect(o.eta).not.toBeNull();
        if (o.status !== 'DELIVERED' && o.status !== 'CANCELLED') expect(o.eta! > world.today).toBe(true);
        for (const l of o.lines) {
          const p = catalog.get(l.product_id)!;
          expect(p).toBeDefined();
          expect(isDeniedCategory(p.category)).toBe(false);
          expect(l.title).toBe(p.title);
          expect(keys.has(describeKey(p))).toBe(false);
          keys.add(describeKey(p));
        }
      }
    }
  });

  it('statuses follow 10/15/20/45/10 %', () => {
    const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<string, number>;
    let n = 0;
    for (let seed = 0; seed < 400; seed++) {
      const world = createWorld('2026-02-10');
      for (const o of generateOrderHistory({ catalog, world, rng: new Rng(1000 + seed), count: 5 })) {
        counts[o.status]++;
        n++;
      }
    }
    for (const s of ORDER_STATUSES) expect(Math.abs(counts[s] / n - STATUS_WEIGHTS[s])).toBeLessThan(0.03);
  });

  it('is deterministic in the rng and appends without reusing ids or describe keys', () => {
    const a = createWorld('2026-02-10');
    const b = createWorld('2026-02-10');
    generateOrderHistory({ catalog, world: a, rng: new Rng(5), count: 4 });
    generateOrderHistory({ catalog, world: b, rng: new Rng(5), count: 4 });
    expect(a.orders).toEqual(b.orders);
    generateOrderHistory({ catalog, world: a, rng: new Rng(6), count: 3 });
    expect(new Set(a.orders.map((o) => o.order_id)).size).toBe(7);
    const keys = a.orders.flatMap((o) => o.lines.map((l) => describeKey(catalog.get(l.product_id)!)));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lists newest first, then by id, in the order localeCompare gives (the comparator skips it for speed)', () => {
    for (let seed = 0; seed < 40; seed++) {
      const world = createWorld('2026-02-10');
      generateOrderHistory({ catalog, world, rng: new Rng(seed), count: 30 });
      const byLocale = [...world.orders]
        .reverse()
        .sort((a, b) => b.placed_date.localeCompare(a.placed_date) || a.order_id.localeCompare(b.order_id));
      expect(world.orders.map((o) => o.order_id)).toEqual(byLocale.map((o) => o.order_id));
      expect([...byLocale].reverse().sort(byNewestOrder)).toEqual(byLocale);
    }
  });
});
