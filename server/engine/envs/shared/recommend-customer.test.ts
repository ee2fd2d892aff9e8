// The customer's reading of the agent's message (recommend-customer.ts): the hand scan for named
// ids against the regex it replaced, and the title table's behaviour as a plain object.

import { describe, expect, it } from 'vitest';
import { testCatalog } from '../../testing';
import { Rng } from '../../random';
import { namedIds, newCustomerNotes } from './recommend-customer';

const catalog = testCatalog();
const ID_TOKEN = /[A-Za-z0-9][A-Za-z0-9_-]{3,}/g;
const byRegex = (message: string) =>
  [...message.matchAll(ID_TOKEN)].filter((m) => catalog.get(m[0])).map((m) => ({ at: m.index, id: m[0] }));
const byScan = (message: string) => {
  const found: Array<{ at: number; id: string }> = [];
  namedIds(message, catalog, found);
  return found;
};

describe('namedIds', () => {
  it('finds what /[A-Za-z0-9][A-Za-z0-9_-]{3,}/g finds among catalog ids, at the same offsets', () => {
    const id = catalog.search({ query: 'charger', topK: 1 })[0].productId;
    const message = `Try ${id}, or -${id}_x; ${id}.`;
    expect(byScan(message)).toEqual([
      { at: 4, id },
      { at: message.lastIndexOf(id), id },
    ]); // "-<id>_x" is the word "<id>_x", not an id
    expect(byScan(message)).toEqual(byRegex(message));
    expect(byScan(`${id}`)).toEqual([{ at: 0, id }]);
    expect(byScan(`a${id}`)).toEqual([]); // part of a longer word
  });

  it('agrees with the regex over 3,000 random messages of ids, id-like words and separators', () => {
    const ids = catalog.search({ query: 'usb cable', topK: 5 }).map((h) => h.productId);
    const parts = [...ids, 'syn', 'syn_', '_', '-', ' ', '.', ',', 'ab', 'abc', 'abcd', 'Ab9-', 'é', '__x', '9', 'z-z'];
    const rng = new Rng(7);
    let named = 0;
    for (let round = 0; round < 3000; round++) {
      const message = Array.from({ length: rng.int(0, 12) }, () => rng.pick(parts)).join('');
      const expected = byRegex(message);
      named += expected.length;
      expect(byScan(message), message).toEqual(expected);
    }
    expect(named).toBeGreaterThan(500); // the drawn messages do name ids
  });
});

describe('the title table', () => {
  it('reads, iterates in insertion order and serialises as a plain object', () => {
    const { titles } = newCustomerNotes();
    expect(JSON.stringify(titles)).toBe('{}');
    expect(Object.getPrototypeOf(titles)).toBe(Object.prototype);
    titles['usb-c charger 65w'] = 'p2';
    titles['braided cable 2m'] = 'p1';
    titles['usb-c charger 65w'] = 'p3';
    expect(Object.entries(titles)).toEqual([
      ['usb-c charger 65w', 'p3'],
      ['braided cable 2m', 'p1'],
    ]);
    expect(JSON.stringify(titles)).toBe('{"usb-c charger 65w":"p3","braided cable 2m":"p1"}');
    expect(titles).toEqual({ 'braided cable 2m': 'p1', 'usb-c charger 65w': 'p3' });
  });
});
