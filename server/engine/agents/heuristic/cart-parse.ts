// Reading CART requests: the opening's item list and the customer's later
// corrections, reveals and alternatives (templates in envs/cart.ts).

import { editDistance } from '../../catalog/fuzzy';
import { ATTRIBUTE_NAMES } from '../../catalog/taxonomy';
import { between, deslang, findPhrase, sameWord, spans, stripPunctuation, words } from './text';

export interface WantedItem {
  /** What the customer called it: a title, or "brand noun" for something seen earlier. */
  name: string;
  viaHistory: boolean;
  qty: number;
  /** The customer named the quantity (else 1 is assumed). */
  qtyStated: boolean;
  /** "(the one for $27.99)": the customer's way to tell same-titled products apart. */
  price?: number;
  variantAttr?: string;
  variantValue?: string;
}

/** Opening templates as (text before the items, text after). */
const TEMPLATES: Array<[string, string]> = [
  ['could you put', 'in my cart'],
  ["i'd like to order", 'can you set that up'],
  ['please add', 'to my cart, thanks'],
  ['i need', 'can you build my cart'],
  ['can you help me buy', ''],
  ["i'm shopping for", 'please add them to the cart'],
];

const ATTR_PHRASES = ATTRIBUTE_NAMES.map((a) => ({ attr: a, words: a.split('_') })).sort(
  (a, b) => b.words.length - a.words.length,
);
const HISTORY_TAIL = 'i was looking at earlier';

/** The raw item list of an opening (or of a JOURNEY sub-request), or null when no template fits. */
export function itemListOf(raw: string): string | null {
  const message = deslang(raw);
  let best: { text: string; score: number } | null = null;
  for (const [before, after] of TEMPLATES) {
    const text = between(message, before, after || null, 1);
    if (text === null) continue;
    const score = words(before).length + words(after).length;
    if (!best || score > best.score) best = { text, score };
  }
  return best ? stripPunctuation(best.text) : null;
}

/** "the" as typed: lower-case, at most one typo ("teh", "te", "thhe"); title words are capitalised. */
const isThe = (raw: string | undefined) => {
  const w = raw?.replace(/[^A-Za-z]/g, '') ?? '';
  return (
    w.length >= 2 &&
    w.length <= 4 &&
    w === w.toLowerCase() &&
    !['them', 'then', 'they', 'to', 'tea', 'tie'].includes(w) &&
    editDistance(w, 'the', 1) <= 1
  );
};
const isAnd = (raw: string) =>
  raw.length >= 2 && raw.length <= 4 && raw === raw.toLowerCase() && editDistance(raw, 'and', 1) <= 1;
const startsItem = (tokens: string[], i: number) =>
  (isThe(tokens[i]) && tokens[i + 1] !== undefined) ||
  (/^\d+$/.test(tokens[i] ?? '') && sameWord(tokens[i + 1] ?? '', 'of') && isThe(tokens[i + 2]));

/** Splits "2 of the A, B and the C in color Red" into items at ", " / " and " before "the" or "N of the". */
export function splitItems(list: string): string[] {
  const tokens = list.split(/\s+/).filter(Boolean);
  const items: string[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const current = items[items.length - 1];
    const prev = current[current.length - 1];
    if (current.length > 0 && isAnd(tokens[i]) && startsItem(tokens, i + 1)) {
      items.push([]);
      continue;
    }
    if (current.length > 0 && prev.endsWith(',') && startsItem(tokens, i)) {
      current[current.length - 1] = prev.slice(0, -1);
      items.push([]);
    }
    items[items.length - 1].push(tokens[i]);
  }
  return items.map((t) => stripPunctuation(t.join(' '))).filter(Boolean);
}

export function parseItem(text: string): WantedItem {
  let rest = text.trim();
  let qty = 1;
  let qtyStated = false;
  const count = /^(\d+)\s+\S+\s+/.exec(rest);
  if (count && sameWord(words(rest)[1] ?? '', 'of')) {
    qty = Number(count[1]);
    qtyStated = true;
    rest = rest.slice(count[0].length);
  }
  if (isThe(rest.split(/\s+/)[0])) rest = rest.replace(/^\S+\s+/, '');
  let price: number | undefined;
  const priced = /\s*\([^()$]*\$(\d+(?:\.\d+)?)\)/.exec(rest);
  if (priced) {
    price = Number(priced[1]);
    rest = rest.slice(0, priced.index) + rest.slice(priced.index + priced[0].length);
  }
  const variant = splitVariant(rest);
  rest = variant.name;
  const s = spans(rest);
  const tail = findPhrase(s, HISTORY_TAIL, Math.max(0, s.length - 6), 1);
  const viaHistory = tail > 0;
  const name = viaHistory ? rest.slice(0, s[tail].start).trim() : rest;
  return { name, viaHistory, qty, qtyStated, price, variantAttr: variant.attr, variantValue: variant.value };
}

/** "X in connector type USB-C" → name X, attr connector_type, value USB-C. */
function splitVariant(text: string): { name: string; attr?: string; value?: string } {
  const s = spans(text);
  for (let i = s.length - 2; i > 0; i--) {
    if (s[i].word !== 'in') continue;
    for (const a of ATTR_PHRASES) {
      const at = s.slice(i + 1, i + 1 + a.words.length);
      if (
        at.length === a.words.length &&
        a.words.every((w, k) => sameWord(w, at[k].word)) &&
        s[i + a.words.length + 1]
      ) {
        const value = stripPunctuation(text.slice(s[i + a.words.length + 1].start));
        return { name: text.slice(0, s[i].start).trim(), attr: a.attr, value };
      }
    }
  }
  return { name: text };
}

export function parseOpening(message: string): WantedItem[] {
  const list = itemListOf(message);
  return list ? splitItems(list).map(parseItem) : [];
}

/** What a later customer message tells us about one item, named by `ref` (title or "brand noun"). */
export type CartNews =
  | { kind: 'variant'; ref: string; value: string }
  | { kind: 'qty'; ref: string; qty: number }
  | { kind: 'extra'; ref: string }
  | { kind: 'alternative'; ref: string; value: string };

export function parseNews(message: string): CartNews[] {
  const news: CartNews[] = [];
  for (const part of message.split(/,\s+and\s+|\.\s+|:\s+/)) {
    const p = part.trim();
    let m: string | null;
    // "the Acme charger should be the USB-C one"
    if ((m = between(p, 'should be the', 'one', 1)) !== null) {
      const ref = between(p, null, 'should be the', 1);
      if (ref) news.push({ kind: 'variant', ref: stripThe(ref), value: stripPunctuation(m) });
      continue;
    }
    // "That charger is the Lightning one, I need USB-C."
    const wrong = /\bone,\s+i\s+\S+\s+(.+)$/i.exec(p);
    if (wrong && /^that\b/i.test(p)) {
      const ref = between(p, 'that', 'is the', 1);
      news.push({ kind: 'variant', ref: ref ?? '', value: stripPunctuation(wrong[1]) });
      continue;
    }
    // "I need 3 of the Acme Mug, not 2." / "I need 3 of the Acme mug"
    const qty = /\b(\d+)\s+of\s+the\s+(.+?)(?:,\s+not\s+\d+)?\.?$/i.exec(p);
    if (qty) {
      news.push({ kind: 'qty', ref: qty[2], qty: Number(qty[1]) });
      continue;
    }
    if ((m = between(p, "didn't ask for the", null, 1)) !== null) {
      news.push({ kind: 'extra', ref: stripPunctuation(m) });
      continue;
    }
    // "Then the Blue Acme mug is fine instead"
    if ((m = between(p, null, 'is fine instead', 1)) !== null) {
      news.push({ kind: 'alternative', ref: stripThe(stripPunctuation(m.replace(/^then\s+/i, ''))), value: '' });
    }
  }
  return news;
}

const stripThe = (text: string) =>
  isThe(text.trim().split(/\s+/)[0]?.toLowerCase()) ? text.trim().replace(/^\S+\s+/, '') : text;
