// BUNDLE heuristic: read the list of things the project needs and the budget,
// search each thing, and pick the cheapest in-stock product of the category most
// of the results fall in.

import { isDeniedCategory } from '../../catalog/taxonomy';
import type { ToolCall } from '../../types';
import { between, deslang, sameWord, stripPunctuation } from './text';
import type { Card, Strategy, TurnInput, TurnOutput } from './types';

/** Where the list of needed things starts and (optionally) ends, per opening template (envs/bundle.ts). */
const LIST_MARKERS: Array<[string, string | null]> = [
  ['one of each', null],
  ['and need', 'what would you get'],
  ['please recommend', 'one product each'],
  ['so i need', null],
  ["i'm after", 'just one item'],
  ['i still need', 'which would you choose'],
];
const ARTICLES = /^(?:a set of|a pair of|an?|some)\s+/i;

export function neededThings(message: string): string[] {
  const text = deslang(message);
  for (const [start, end] of LIST_MARKERS) {
    const found = between(text, start, end, 1);
    if (found === null) continue;
    const list = found.split(/[.?]/)[0];
    return list
      .split(/,\s+|\s+(?:and|adn|nad|amd|ad|annd|anf)\s+/i)
      .map((p) => stripPunctuation(p.replace(/^(?:and|adn|nad|amd|ad)\s+/i, '')).replace(ARTICLES, ''))
      .filter((p) => p.length > 0);
  }
  return [];
}

export const budgetOf = (message: string): number | null => {
  const m = /budget is \$(\d+(?:\.\d+)?)/i.exec(message);
  return m ? Number(m[1]) : null;
};

/** The category most of the top results share (rank-weighted), and its cheapest in-stock product. */
export function cheapestOfKind(
  cards: readonly Card[],
  thing: string,
  taken: ReadonlySet<string> = new Set(),
): Card | null {
  const votes = new Map<string, number>();
  // "coffee" also finds coffee makers: a category another thing already covers is not this one
  const allowed = cards.filter(
    (c) => !isDeniedCategory(String(c.key_attrs.category)) && !taken.has(String(c.key_attrs.category)),
  );
  allowed.slice(0, 10).forEach((c, i) => {
    const cat = String(c.key_attrs.category);
    const named = thing.split(/\s+/).some((w) =>
      c.title
        .toLowerCase()
        .split(/\W+/)
        .some((t) => sameWord(t, w.toLowerCase())),
    );
    votes.set(cat, (votes.get(cat) ?? 0) + (10 - i) * (named ? 2 : 1));
  });
  const best = [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!best) return null;
  const pool = allowed.filter((c) => String(c.key_attrs.category) === best && c.stock_qty > 0);
  return pool.sort((a, b) => a.price - b.price || (a.product_id < b.product_id ? -1 : 1))[0] ?? null;
}

/** The card's title names the thing (any of its words, typo-tolerant). */
const mentions = (card: Card, thing: string) =>
  thing.split(/[\s-]+/).some(
    (w) =>
      w.length > 2 &&
      card.title
        .toLowerCase()
        .split(/\W+/)
        .some((t) => sameWord(t, w.toLowerCase().replace(/s$/, '')) || sameWord(t, w.toLowerCase())),
  );

export function createBundleStrategy(): Strategy {
  let things: string[] = [];
  const picks = new Map<string, Card>();
  /** Searches per thing: 1 after a shared query, 2 once searched alone. */
  const searched = new Map<string, number>();
  /** Per call of the last turn: the things it searched for (several when one query covered them). */
  let owners: string[][] = [];
  let asked = false;
  let budget: number | null = null;

  return {
    envId: 'BUNDLE',
    step(input: TurnInput): TurnOutput {
      if (things.length === 0 && !asked) things = neededThings(input.message);
      budget ??= budgetOf(input.message);
      input.results.forEach((r, i) => {
        if (!owners[i] || r.error !== null || r.name !== 'catalog.search') return;
        for (const thing of owners[i]) {
          if (picks.has(thing)) continue;
          const cards =
            owners[i].length === 1 ? (r.result as Card[]) : (r.result as Card[]).filter((c) => mentions(c, thing));
          const pick = cheapestOfKind(
            cards,
            thing,
            new Set([...picks.values()].map((p) => String(p.key_attrs.category))),
          );
          if (pick) picks.set(thing, pick);
        }
      });
      // searched alone and still nothing: give up on it; covered by a shared query: try alone
      const todo = things.filter((t) => !picks.has(t) && (searched.get(t) ?? 0) < 2);
      if (todo.length > 0 && input.turnsLeft > 1) {
        // one call per thing while the budget lasts; the last call covers the rest in one query
        // (a thing a shared query missed is searched alone next)
        const alone = todo.filter((t) => searched.get(t) === 1);
        const fresh = todo.filter((t) => !searched.has(t));
        const fitsAlone = fresh.length === 0 || fresh.length + alone.length <= input.budget;
        const singles = [...alone, ...fresh].slice(0, fitsAlone ? input.budget : input.budget - 1);
        const rest = fresh.filter((t) => !singles.includes(t));
        const groups: string[][] = [...singles.map((t) => [t]), ...(rest.length ? [rest] : [])];
        owners = groups;
        for (const g of groups) for (const t of g) searched.set(t, g.length === 1 ? 2 : (searched.get(t) ?? 0) + 1);
        const calls: ToolCall[] = groups.map((g) => ({
          name: 'catalog.search',
          args: { query: g.join(' '), filters: { in_stock: true }, top_k: g.length === 1 ? 30 : 200 },
        }));
        const question = !asked && budget === null ? ' What is your total budget?' : '';
        asked = true;
        return { message: `Let me find ${todo.join(', ')}.${question}`, calls };
      }
      const ids = things.map((t) => picks.get(t)?.product_id).filter((id): id is string => Boolean(id));
      return {
        message: `Here is your bundle: ${things.map((t) => picks.get(t)?.title ?? t).join('; ')}.`,
        calls: [],
        answer: { recommended_product_ids: ids },
      };
    },
  };
}
