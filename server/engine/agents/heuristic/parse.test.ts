// The heuristic's reading of customer language (templates from envs/*.ts).

import { describe, expect, it } from 'vitest';
import { neededThings, budgetOf } from './bundle';
import { parseNews, parseOpening, splitItems } from './cart-parse';
import { classifyRequest } from './journey';
import { itemPhraseOf, whenOf } from './orders';
import { productNounOf } from './pd';
import { answerValue, parseCondition, parseFacts, readRule } from './policy';
import { parseWants } from './recommend';
import { originalTitleOf } from './sub';
import { deslang, sameWord } from './text';

describe('text', () => {
  it('undoes slang and forgives one typo per word', () => {
    expect(deslang('pls add thx')).toBe('please add thanks');
    expect(sameWord('chrager', 'charger')).toBe(true);
    expect(sameWord('65w', '45w')).toBe(false);
  });
});

describe('CART', () => {
  it('splits an item list at ", " and " and " before "the" or "N of the", not inside titles', () => {
    expect(
      splitItems(
        'the Acme Speaker 45W, HDMI in connector type Bluetooth, 2 of the Brio Mat Size 6mm, TPE adn teh Zest Mug',
      ),
    ).toEqual([
      'the Acme Speaker 45W, HDMI in connector type Bluetooth',
      '2 of the Brio Mat Size 6mm, TPE',
      'teh Zest Mug',
    ]);
  });

  it('reads quantity, variant, price and visit-history references', () => {
    const items = parseOpening(
      'Hey, I need 3 of the Acme Card Game Ages 12+ Years (the one for $27.99), the Brio sofa I was looking at earlier in color Navy and the Zest Wall Charger 65W in connector type USB-C. Can you build my cart?',
    );
    expect(items).toEqual([
      {
        name: 'Acme Card Game Ages 12+ Years',
        viaHistory: false,
        qty: 3,
        qtyStated: true,
        price: 27.99,
        variantAttr: undefined,
        variantValue: undefined,
      },
      {
        name: 'Brio sofa',
        viaHistory: true,
        qty: 1,
        qtyStated: false,
        price: undefined,
        variantAttr: 'color',
        variantValue: 'Navy',
      },
      {
        name: 'Zest Wall Charger 65W',
        viaHistory: false,
        qty: 1,
        qtyStated: false,
        price: undefined,
        variantAttr: 'connector_type',
        variantValue: 'USB-C',
      },
    ]);
  });

  it('reads corrections, reveals and alternatives', () => {
    expect(parseNews('That charger is the Lightning one, I need USB-C.')).toEqual([
      { kind: 'variant', ref: 'charger', value: 'USB-C' },
    ]);
    expect(parseNews('I need 3 of the Acme Mug, not 2.')).toEqual([{ kind: 'qty', ref: 'Acme Mug', qty: 3 }]);
    expect(parseNews("I didn't ask for the Acme Mug.")).toEqual([{ kind: 'extra', ref: 'Acme Mug' }]);
    expect(parseNews('The Acme charger should be the USB-C one, and I need 2 of the Brio mug.')).toEqual([
      { kind: 'variant', ref: 'Acme charger', value: 'USB-C' },
      { kind: 'qty', ref: 'Brio mug', qty: 2 },
    ]);
    expect(parseNews("Oh, that's a shame. Then the Blue Acme mug is fine instead.")[0]).toMatchObject({
      kind: 'alternative',
      ref: 'Blue Acme mug',
    });
  });
});

describe('PD / SUB requirements', () => {
  it('reads each requirement phrase', () => {
    expect(
      parseWants(
        'a charger under $35, rated at least 4.2 stars, that ships within 3 days, from Kestrel Audio, in Black and with USB-C connectivity',
      ),
    ).toEqual([
      { attr: 'price', op: 'max', value: 35 },
      { attr: 'rating', op: 'min', value: 4.2 },
      { attr: 'ship_days', op: 'max', value: 3 },
      { attr: 'brand', op: 'eq', value: 'Kestrel Audio' },
      { attr: 'connector_type', op: 'eq', value: 'USB-C' },
      { attr: 'color', op: 'eq', value: 'Black' },
    ]);
    expect(
      parseWants('in size XL, made of Stainless Steel, with at least 65W, no more than 5 lb and with item form Cream'),
    ).toEqual([
      { attr: 'size', op: 'eq', value: 'XL' },
      { attr: 'material', op: 'eq', value: 'Stainless Steel' },
      { attr: 'wattage', op: 'min', value: 65 },
      { attr: 'weight_lb', op: 'max', value: 5 },
      { attr: 'item_form', op: 'eq', value: 'Cream' },
    ]);
  });

  it('finds the product kind and the sold-out title', () => {
    expect(productNounOf("Hi! I'm looking for a wall charger under $35. What would you recommend?")).toBe(
      'wall charger',
    );
    expect(productNounOf("Hey, what's the best desk lamp you have under $9?")).toBe('desk lamp');
    expect(originalTitleOf('The Acme Knife Set Steel, Size 6 Inch I wanted is out of stock.')).toBe(
      'Acme Knife Set Steel, Size 6 Inch',
    );
  });
});

describe('BUNDLE', () => {
  it('reads the needed things and the budget', () => {
    expect(
      neededThings(
        "Hi! I'm going camping. Can you pick one of each: a tent, some snacks and a set of measuring cups? My budget is $120 for everything.",
      ),
    ).toEqual(['tent', 'snacks', 'measuring cups']);
    expect(budgetOf('My budget is $120 for everything.')).toBe(120);
  });
});

describe('orders', () => {
  it('reads the item and when it was bought', () => {
    expect(itemPhraseOf("Hi, where's teh Voltura wall charger I ordered last week?")).toBe('Voltura wall charger');
    expect(itemPhraseOf('I ordered the Orbitron wall charger about two months ago. Any news on it?')).toBe(
      'Orbitron wall charger',
    );
    expect(whenOf('I bought it about two weeks ago')).toEqual([14, 20]);
  });
});

describe('POLICY', () => {
  it('reads the customer facts', () => {
    expect(
      parseFacts(
        "I'm a premium member, my order total is $624.21, it's an electronics item and I've been a member for 14 months.",
      ),
    ).toEqual({
      member_tier: 'premium',
      order_total: 624.21,
      department: 'electronics',
      membership_months: 14,
    });
  });

  it('reads a rule back from its text', () => {
    expect(parseCondition('orders totalling $35.00 or more')).toEqual({ field: 'order_total', op: 'gte', value: 35 });
    expect(parseCondition('requests made over 14 days after delivery')).toEqual({
      field: 'days_since_delivery',
      op: 'gt',
      value: 14,
    });
    const rule = readRule({
      rule_id: 'X',
      text: 'Applies to basic members and shipping to Alaska or Hawaii: the free-shipping minimum is $75.00.',
    })!;
    expect(rule.conditions).toEqual([
      { field: 'member_tier', op: 'eq', value: 'basic' },
      { field: 'destination', op: 'eq', value: 'alaska_hawaii' },
    ]);
    expect(rule.stem).toBe('the free-shipping minimum is ');
    expect(answerValue(rule.answer)).toBe(75);
    expect(answerValue('5-7 business days')).toBe('5-7 business days');
    expect(answerValue('15% of the item price')).toBe(15);
  });
});

describe('JOURNEY request classifier', () => {
  const all = ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE'] as const;
  it.each([
    ['Please add the Acme Mug to my cart, thanks.', 'CART'],
    ["Hi! I'm looking for a wall charger under $35. What would you recommend?", 'PD'],
    ['The Acme Mug I wanted is out of stock. Can you find me something similar?', 'SUB'],
    ["Hi, I'd like to return the Acme mug I bought last week.", 'RETURN'],
    ["Hi, what's the status of order ORD-12345?", 'STATUS'],
    ["Quick policy question: How long is the warranty? It's a tool.", 'POLICY'],
    ["I'm going camping and need a tent, a headlamp and some snacks. What would you get?", 'BUNDLE'],
  ] as const)('%s → %s', (text, env) => {
    expect(classifyRequest(text, all)).toBe(env);
  });
});
