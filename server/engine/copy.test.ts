import { describe, expect, it } from 'vitest';
import { deepFreeze, frozenCopy, frozenOrCopy } from './copy';
import { cartContents, cartHolds, type CartLine } from './world/state';

describe('deepFreeze: fresh data frozen in place', () => {
  it('freezes every plain object and list down the tree and returns the same value', () => {
    const args = { query: 'usb cable', filters: { brands: ['Acme', 'Bolt'], price: { max: 20 } }, list: [{ a: 1 }] };
    expect(deepFreeze(args)).toBe(args);
    for (const part of [args, args.filters, args.filters.brands, args.filters.price, args.list, args.list[0]])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      (args.filters.price as { max: number }).max = 99;
    }).toThrow(TypeError);
  });

  it('leaves primitives and class instances as they are', () => {
    const when = new Date(0);
    const data = { when, n: 1 };
    deepFreeze(data);
    expect(Object.isFrozen(data)).toBe(true);
    expect(Object.isFrozen(when)).toBe(false);
    expect(deepFreeze('text')).toBe('text');
    expect(deepFreeze(null)).toBe(null);
  });
});

describe('frozenOrCopy: a frozen part shared, anything else copied', () => {
  it('shares a frozen value and copies an unfrozen one (deeply), so freezing the result freezes no source', () => {
    const cached = Object.freeze({ color: 'red', wattage: 65 });
    expect(frozenOrCopy(cached)).toBe(cached);
    const live = { color: 'red', sizes: ['s', 'm'] };
    const mine = frozenOrCopy(live);
    expect(mine).not.toBe(live);
    expect(mine.sizes).not.toBe(live.sizes);
    expect(mine).toEqual(live);
    deepFreeze(mine);
    expect(Object.isFrozen(live) || Object.isFrozen(live.sizes)).toBe(false);
    expect(frozenOrCopy('text')).toBe('text');
  });
});

describe('frozenCopy: a frozen deep copy with the same JSON', () => {
  it('copies every level, freezes it, and leaves the source as it was', () => {
    const source = { id: 'p1', price: 3.5, attrs: { color: 'red' }, variants: [{ id: 'v1', stock: 2 }], none: null };
    const copy = frozenCopy(source);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
    for (const [a, b] of [
      [copy, source],
      [copy.attrs, source.attrs],
      [copy.variants, source.variants],
      [copy.variants[0], source.variants[0]],
    ]) {
      expect(a).not.toBe(b);
      expect(Object.isFrozen(a)).toBe(true);
      expect(Object.isFrozen(b)).toBe(false);
    }
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('keeps an own "__proto__" key (JSON.parse makes one) as a key, never as the prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":{"c":2}}') as Record<string, unknown>;
    const copy = frozenCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['a', '__proto__', 'b']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
  });
});

describe('cartContents / cartHolds: what JSON.stringify(cart) before and after tells', () => {
  const line = (id: string, qty: number, variant: string | null = null): CartLine => ({
    line_id: id,
    product_id: `P-${id}`,
    variant_id: variant,
    qty,
  });

  it('the same lines hold; a changed qty, variant, removed, added or reordered line does not', () => {
    const cart = [line('a', 1), line('b', 2, 'v1')];
    const before = cartContents(cart);
    expect(cartHolds(cart, before)).toBe(true);
    expect(cartHolds([line('a', 1), line('b', 2, 'v1')], before)).toBe(true); // same contents, new objects
    expect(cartHolds([line('a', 1), line('b', 3, 'v1')], before)).toBe(false);
    expect(cartHolds([line('a', 1), line('b', 2, 'v2')], before)).toBe(false);
    expect(cartHolds([line('a', 1)], before)).toBe(false);
    expect(cartHolds([...cart, line('c', 1)], before)).toBe(false);
    expect(cartHolds([cart[1], cart[0]], before)).toBe(false);
    expect(cartHolds([], cartContents([]))).toBe(true);
  });

  it('agrees with comparing JSON texts over random edits', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 500; round++) {
      const cart = Array.from({ length: Math.floor(next() * 4) }, (_, i) =>
        line(String(i), 1 + Math.floor(next() * 3), next() < 0.5 ? null : 'v'),
      );
      const text = JSON.stringify(cart);
      const contents = cartContents(cart);
      const edited = cart.map((l) => ({ ...l }));
      const pick = edited[Math.floor(next() * edited.length)];
      if (pick && next() < 0.5) pick.qty = 1 + Math.floor(next() * 3);
      if (next() < 0.2) edited.pop();
      expect(cartHolds(edited, contents)).toBe(JSON.stringify(edited) === text);
    }
  });
});
