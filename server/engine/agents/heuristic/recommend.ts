// Reading a customer's product requirements ("under $35", "from Voltura", "in
// size M", "with at least 65W") and ranking product cards against them. Shared
// by the PD, SUB and RETURN-replacement heuristics.

import { ATTRIBUTE_NAMES, isDeniedCategory } from '../../catalog/taxonomy';
import { categoryNoun } from '../../envs/cart';
import { nameSimilarity, sameWord, words } from './text';
import type { Card } from './types';

export interface Want {
  attr: string;
  op: 'eq' | 'max' | 'min';
  value: string | number;
}

const UNIT_ATTR: Array<[RegExp, string]> = [
  [/^(\d+(?:\.\d+)?)W$/i, 'wattage'],
  [/^(\d+(?:\.\d+)?) inches$/i, 'screen_size_in'],
  [/^(\d+(?:\.\d+)?) lb$/i, 'weight_lb'],
  [/^(\d+(?:\.\d+)?)V$/i, 'voltage'],
  [/^(\d+(?:\.\d+)?) oz$/i, 'capacity_oz'],
];
const ATTR_NAMES = [...ATTRIBUTE_NAMES].sort((a, b) => b.length - a.length);
const NUM = '(\\d+(?:\\.\\d+)?)';
/** A value as the customer writes it: capitalised words or tokens with digits, e.g. "Stainless Steel", "USB-C", "3.5mm". */
const TOKEN = "[A-Z0-9][\\w+'-]*(?:\\.\\d\\w*)?";
const VALUE = `(${TOKEN}(?: (?:&|${TOKEN}))*)`;

/** Every requirement phrase found in a text (the customer's wording from envs/shared/persona.ts). */
export function parseWants(text: string): Want[] {
  const out: Want[] = [];
  const add = (w: Want) => {
    if (!out.some((x) => x.attr === w.attr && x.op === w.op)) out.push(w);
  };
  const t = text.replace(/\s+/g, ' ');
  for (const m of t.matchAll(new RegExp(`\\bunder \\$${NUM}`, 'gi')))
    add({ attr: 'price', op: 'max', value: Number(m[1]) });
  for (const m of t.matchAll(new RegExp(`\\brated at least ${NUM}`, 'gi')))
    add({ attr: 'rating', op: 'min', value: Number(m[1]) });
  if (/ships within a day/i.test(t)) add({ attr: 'ship_days', op: 'max', value: 1 });
  for (const m of t.matchAll(new RegExp(`\\bships within ${NUM} days`, 'gi')))
    add({ attr: 'ship_days', op: 'max', value: Number(m[1]) });
  for (const m of t.matchAll(new RegExp(`\\bfrom ${VALUE}`, 'g'))) add({ attr: 'brand', op: 'eq', value: m[1] });
  for (const m of t.matchAll(new RegExp(`\\bin size ${VALUE}`, 'g'))) add({ attr: 'size', op: 'eq', value: m[1] });
  for (const m of t.matchAll(new RegExp(`\\bmade of ${VALUE}`, 'g'))) add({ attr: 'material', op: 'eq', value: m[1] });
  for (const m of t.matchAll(new RegExp(`\\bwith ${VALUE} connectivity`, 'g')))
    add({ attr: 'connector_type', op: 'eq', value: m[1] });
  for (const m of t.matchAll(new RegExp(`\\bin a pack of at (least|most) ${NUM}`, 'gi')))
    add({ attr: 'pack_count', op: m[1] === 'least' ? 'min' : 'max', value: Number(m[2]) });
  for (const m of t.matchAll(new RegExp(`\\bwith at least ${NUM} pieces`, 'gi')))
    add({ attr: 'piece_count', op: 'min', value: Number(m[1]) });
  for (const m of t.matchAll(
    /\b(with at least|no more than) (\d+(?:\.\d+)?(?:W| inches| lb|V| oz)|\d+(?:\.\d+)? [a-z ]+?)(?=[,.?!]| and |$)/gi,
  )) {
    const op = m[1].toLowerCase() === 'no more than' ? 'max' : 'min';
    const unit = UNIT_ATTR.find(([re]) => re.test(m[2]));
    if (unit) add({ attr: unit[1], op, value: Number(unit[0].exec(m[2])![1]) });
    else {
      const [num, ...name] = m[2].split(' ');
      const attr = ATTR_NAMES.find((a) => a === name.join('_'));
      if (attr) add({ attr, op, value: Number(num) });
    }
  }
  for (const attr of ATTR_NAMES) {
    const spoken = attr.replace(/_/g, ' ');
    for (const m of t.matchAll(new RegExp(`\\bwith ${spoken} ${VALUE}`, 'gi'))) add({ attr, op: 'eq', value: m[1] });
  }
  // "in Black" (a color) once the sized and made-of forms are taken
  for (const m of t.matchAll(new RegExp(`\\bin (?!size\\b|a pack\\b|stock\\b)${VALUE}`, 'g')))
    add({ attr: 'color', op: 'eq', value: m[1] });
  return out;
}

export function cardValue(card: Card, attr: string): string | number | undefined {
  if (attr === 'price') return card.price;
  if (attr === 'rating') return card.rating;
  if (attr === 'ship_days') return card.ship_days;
  return card.key_attrs[attr];
}

const sameText = (a: string, b: string) => {
  const x = words(a);
  const y = words(b);
  return x.length === y.length && x.every((w, i) => sameWord(w, y[i]));
};

export function meets(card: Card, want: Want): boolean {
  const v = cardValue(card, want.attr);
  if (v === undefined) return false;
  if (want.op === 'eq') return sameText(String(v), String(want.value));
  const x = Number(v);
  return want.op === 'max' ? x <= Number(want.value) + 1e-9 : x >= Number(want.value) - 1e-9;
}

export const satisfaction = (card: Card, wants: readonly Want[]) =>
  wants.length === 0 ? 1 : wants.filter((w) => meets(card, w)).length / wants.length;

/** Search filters for what a filter can say exactly (numbers); names go into the query, where typos are forgiven. */
export function searchFor(noun: string, wants: readonly Want[], topK = 50) {
  const filters: Record<string, number> = {};
  const named: string[] = [];
  for (const w of wants) {
    if (w.attr === 'price' && w.op === 'max') filters.price_max = Number(w.value);
    else if (w.attr === 'rating' && w.op === 'min') filters.rating_min = Math.min(5, Math.max(1, Number(w.value)));
    else if (w.attr === 'ship_days' && w.op === 'max') filters.ship_days_max = Math.max(1, Math.round(Number(w.value)));
    else if (w.op === 'eq') named.push(String(w.value));
  }
  const query = [...named, noun].join(' ').trim() || noun;
  return { query, ...(Object.keys(filters).length ? { filters } : {}), top_k: topK };
}

/**
 * A shopper's taste when the persona is unknown, after SPEC §7: Dirichlet(2,2,1,1,1) mean weights
 * over (price, rating, shipping, brand, similarity), +3 on each dimension the customer constrained.
 */
function appeal(card: Card, wants: readonly Want[], lowPrice: number, highPrice: number): number {
  const stated = (attr: string) => (wants.some((w) => w.attr === attr) ? 3 : 0);
  const w = { price: 2 / 7 + stated('price'), rating: 2 / 7 + stated('rating'), ship: 1 / 7 + stated('ship_days') };
  const span = Math.max(1e-9, highPrice - lowPrice);
  const phiPrice = 1 - Math.min(1, Math.max(0, (card.price - lowPrice) / span));
  const total = w.price + w.rating + w.ship;
  return (
    (w.price * phiPrice + w.rating * ((card.rating - 1) / 4) + w.ship * (1 - Math.min(1, card.ship_days / 14))) / total
  );
}

/** Title and attribute values: what product similarity is measured over. */
export const describeCard = (c: Card) => `${c.title} ${Object.values(c.key_attrs).join(' ').replace(/[/_]/g, ' ')}`;

export interface RankOptions {
  /** Cards must be of this kind (category noun), when any are. */
  noun?: string;
  exclude?: ReadonlySet<string>;
  /** Title of the product to stay close to (SUB), weighted by `similarWeight`. */
  similarTo?: string;
  similarWeight?: number;
}

/** Cards in stock, best first: every requirement met first, then similarity and appeal. */
export function rankCards(cards: readonly Card[], wants: readonly Want[], opts: RankOptions = {}): Card[] {
  const unique = [...new Map(cards.map((c) => [c.product_id, c])).values()].filter(
    // a denied category would void the episode (safety_violation)
    (c) => c.stock_qty > 0 && !opts.exclude?.has(c.product_id) && !isDeniedCategory(String(c.key_attrs.category)),
  );
  const kind = opts.noun ? unique.filter((c) => sameText(categoryNoun(String(c.key_attrs.category)), opts.noun!)) : [];
  const pool = kind.length > 0 ? kind : unique;
  const prices = pool.map((c) => c.price).sort((a, b) => a - b);
  const low = prices[Math.floor(prices.length * 0.1)] ?? 0;
  const high = prices[Math.floor(prices.length * 0.9)] ?? 1;
  const score = (c: Card) =>
    satisfaction(c, wants) * 10 +
    (opts.similarTo ? (opts.similarWeight ?? 1) * nameSimilarity(opts.similarTo, describeCard(c)) : 0) +
    appeal(c, wants, low, high);
  return pool
    .map((c) => ({ c, s: score(c) }))
    .sort((a, b) => b.s - a.s || (a.c.product_id < b.c.product_id ? -1 : 1))
    .map((x) => x.c);
}

/** A question naming every kind of requirement (the customer reveals the ones it left out). */
export const REQUIREMENT_QUESTION = `Any other requirements: a budget, a brand, a minimum rating, a shipping deadline, or a particular ${ATTRIBUTE_NAMES.map((a) => a.replace(/_/g, ' ')).join(', ')}?`;

export const mergeWants = (into: Want[], more: readonly Want[]) => {
  for (const w of more) {
    const i = into.findIndex((x) => x.attr === w.attr && x.op === w.op);
    if (i >= 0) into[i] = w;
    else into.push(w);
  }
  return into;
};

export const cardsIn = (results: ReadonlyArray<{ name: string; error: string | null; result: unknown }>) =>
  results.filter((r) => r.error === null && r.name === 'catalog.search').flatMap((r) => r.result as Card[]);
