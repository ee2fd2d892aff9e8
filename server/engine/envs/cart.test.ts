import { describe, expect, it } from 'vitest';
import type { Catalog } from '../catalog/types';
import { verifyContext } from '../testing';
import { createWorld, type CartLine } from '../world/state';
import { cartEnv, cartF1, type CartGoal } from './cart';

const goal: CartGoal = {
  items: [
    {
      productId: 'A',
      title: 'Acme Red Kettle',
      variantId: 'A_v_color_red',
      variantAttr: 'color',
      variantValue: 'red',
      qty: 2,
      viaHistory: false,
    },
    {
      productId: 'B',
      title: 'Brio Mug',
      variantId: null,
      variantAttr: null,
      variantValue: null,
      qty: 1,
      viaHistory: false,
    },
  ],
};

const line = (n: number, product_id: string, variant_id: string | null, qty: number): CartLine => ({
  line_id: `line_00${n}`,
  product_id,
  variant_id,
  qty,
});

function verify(cart: CartLine[]) {
  const world = createWorld('2026-01-01');
  world.cart = cart;
  world.cartChanges = cart.map((l, i) => ({
    turn: i + 1,
    tool: 'cart.add',
    key: l.variant_id ? `${l.product_id}::${l.variant_id}` : l.product_id,
    qtyBefore: 0,
    qtyAfter: l.qty,
  }));
  const ctx = verifyContext({} as Catalog, world, 3, { turn: 3 });
  return cartEnv.verify(goal, { pending: {}, accepted: {} }, { env: 'CART', done: true }, ctx);
}

describe('CART verifier (unit-level F1, r_task = 2·F1 − 1)', () => {
  it('perfect cart: F1 = 1, r_task = 1', () => {
    const r = verify([line(1, 'A', 'A_v_color_red', 2), line(2, 'B', null, 1)]);
    expect(r.metrics.f1).toBe(1);
    expect(r.rTask).toBe(1);
    expect(r.isCorrect).toBe(true);
  });

  it('wrong variant: matched 1 of 3 units either way → F1 = 1/3', () => {
    const r = verify([line(1, 'A', 'A_v_color_blue', 2), line(2, 'B', null, 1)]);
    expect(r.metrics.precision).toBeCloseTo(1 / 3, 12);
    expect(r.metrics.recall).toBeCloseTo(1 / 3, 12);
    expect(r.rTask).toBeCloseTo(-1 / 3, 12);
    expect(r.isCorrect).toBe(false);
    const bad = r.evidence.find((e) => e.text.startsWith('A::A_v_color_red'))!;
    expect(bad.ok).toBe(false);
    expect(bad.turns).toEqual([1]);
  });

  it('wrong quantity: precision 1, recall 2/3 → F1 = 0.8, r_task = 0.6', () => {
    const r = verify([line(1, 'A', 'A_v_color_red', 1), line(2, 'B', null, 1)]);
    expect(r.metrics.f1).toBeCloseTo(0.8, 12);
    expect(r.rTask).toBeCloseTo(0.6, 12);
    expect(r.evidence.at(-1)).toEqual({
      text: 'matched 2 units; precision 2/2, recall 2/3, F1 = 0.800; r_task = 2·F1 − 1 = 0.600 → fail: F1 < 1',
      turns: [],
      ok: false,
      role: 'verdict',
    });
  });

  it('extra item: precision 3/4, recall 1 → F1 = 6/7', () => {
    const r = verify([line(1, 'A', 'A_v_color_red', 2), line(2, 'B', null, 1), line(3, 'C', null, 1)]);
    expect(r.metrics.f1).toBeCloseTo(6 / 7, 12);
    expect(r.rTask).toBeCloseTo(12 / 7 - 1, 12);
    expect(r.evidence.some((e) => e.text.startsWith('C: ×1 in cart but not requested') && e.turns[0] === 3)).toBe(true);
  });

  it('too many units of a right item count like an extra item', () => {
    expect(verify([line(1, 'A', 'A_v_color_red', 3), line(2, 'B', null, 1)]).metrics.f1).toBeCloseTo(6 / 7, 12);
  });

  it('empty cart: F1 = 0, r_task = −1', () => {
    const r = verify([]);
    expect(r.metrics.f1).toBe(0);
    expect(r.rTask).toBe(-1);
    expect(r.evidence.at(-1)!.text).toBe(
      'matched 0 units; precision 0/0, recall 0/3, F1 = 0.000; r_task = 2·F1 − 1 = −1.000 → fail: F1 < 1',
    );
  });

  it('any variant counts for an item whose goal names none', () => {
    expect(verify([line(1, 'A', 'A_v_color_red', 2), line(2, 'B', 'B_v_size_L', 1)]).metrics.f1).toBe(1);
  });

  it('two lines of the same key add up', () => {
    expect(
      cartF1(goal, [line(1, 'A', 'A_v_color_red', 1), line(2, 'A', 'A_v_color_red', 1), line(3, 'B', null, 1)]).f1,
    ).toBe(1);
  });
});
