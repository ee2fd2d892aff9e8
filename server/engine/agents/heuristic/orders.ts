// Finding the order line a customer describes ("the Voltura wall charger I
// ordered last week") in order.list results. Shared by STATUS and RETURN.

import { editDistance } from '../../catalog/fuzzy';
import { coverage, deslang, sameWord, words } from './text';

export interface OrderLineView {
  line_id: string;
  product_id: string;
  title: string;
  qty: number;
}

export interface OrderView {
  order_id: string;
  status: string;
  placed_date: string;
  delivered_date: string | null;
  lines: OrderLineView[];
}

/** Relative times the customer uses, as a range of days ago (world/order-phrases.ts). */
const WHEN: Array<[string, number, number]> = [
  ['today', 0, 0],
  ['yesterday', 1, 1],
  ['a few days ago', 2, 6],
  ['last week', 7, 13],
  ['about two weeks ago', 14, 20],
  ['about three weeks ago', 21, 27],
  ['about a month ago', 28, 45],
  ['about two months ago', 46, 75],
  ['about three months ago', 76, 400],
];

export function whenOf(text: string): [number, number] | null {
  const t = ` ${words(deslang(text)).join(' ')} `;
  for (const [phrase, lo, hi] of [...WHEN].reverse()) if (t.includes(` ${phrase} `)) return [lo, hi];
  return null;
}

const END =
  /(?= I (?:\S+ )?(?:ordered|bought|got|odrered|orderd|bougth|ordred)\b| I\b|\?|\.|,| (?:today|yesterday|a few days ago|last week|about \w+ \w+ ago)\b)/;

/** The item named after "the" (as typed) and before what follows it ("the X I ordered", "ordered the X."). */
export function itemPhraseOf(text: string): string | null {
  const t = deslang(text);
  for (const m of t.matchAll(/\b([A-Za-z]{2,4}) /g)) {
    const w = m[1].toLowerCase();
    if (w === 'them' || w === 'then' || w === 'they' || w === 'to' || editDistance(w, 'the', 1) > 1) continue;
    const rest = t.slice(m.index! + m[0].length);
    const end = END.exec(rest);
    const phrase = (end ? rest.slice(0, end.index) : rest).trim();
    if (phrase && /^[A-Za-z]/.test(phrase)) return phrase;
  }
  return null;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export interface LineMatch {
  order: OrderView;
  line: OrderLineView;
  score: number;
}

/**
 * Lines ranked by how well their title matches the phrase (its first word, the
 * brand, counts double), with the time the customer gave as a tie-breaker.
 */
export function matchLines(
  orders: readonly OrderView[],
  phrase: string,
  today: string | null,
  when: [number, number] | null,
  filter?: (o: OrderView) => boolean,
): LineMatch[] {
  const w = words(phrase);
  const out: LineMatch[] = [];
  for (const order of orders) {
    if (filter && !filter(order)) continue;
    for (const line of order.lines) {
      const t = words(line.title);
      const brand = w.length > 1 && t.length > 0 && sameWord(w[0], t[0]) ? 1 : 0;
      let score = coverage(phrase, line.title) + brand;
      if (when && today) {
        const ago = daysBetween(order.placed_date, today);
        if (ago >= when[0] && ago <= when[1]) score += 0.5;
      }
      out.push({ order, line, score });
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

export const ordersIn = (results: ReadonlyArray<{ name: string; error: string | null; result: unknown }>) => {
  const lists = results
    .filter((r) => r.error === null && r.name === 'order.list')
    .map((r) => r.result as { today: string; orders: OrderView[] });
  return lists.length ? lists[lists.length - 1] : null;
};
