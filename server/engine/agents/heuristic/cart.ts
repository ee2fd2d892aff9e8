// CART heuristic: parse the requested items, find each (search, or the visit
// history for "the X I was looking at earlier"), resolve variants, add, then fix
// what the customer corrects. Asks once about versions and quantities when the
// opening leaves them out.

import { categoryNoun } from '../../envs/cart';
import type { ToolCall, ToolResult } from '../../types';
import { parseNews, parseOpening, type WantedItem } from './cart-parse';
import { coverage, nameSimilarity, sameWord, words } from './text';
import type { Card, Strategy, TurnInput, TurnOutput } from './types';

interface VariantInfo {
  variant_id: string;
  attrs: Record<string, string | number>;
  stock_qty: number;
}

interface Line {
  line_id: string;
  product_id: string;
  variant_id: string | null;
  qty: number;
  title?: string;
}

interface Item extends WantedItem {
  productId?: string;
  /** "brand noun" once the product is known, the way the customer names it later. */
  short?: string;
  title?: string;
  variants?: VariantInfo[];
  /** Other products that fit the name equally well (same titles), tried when the customer rejects ours. */
  candidates: Card[];
  rejected: Set<string>;
  searches: number;
  outOfStockNoticed: boolean;
}

const MIN_TITLE_MATCH = 0.75;

/** A stated price narrows the search to that product among same-titled ones. */
const searchArgs = (item: Item) =>
  item.price === undefined
    ? { query: item.name }
    : { query: item.name, filters: { price_min: item.price - 0.01, price_max: item.price + 0.01 } };

/** Words with digits (model codes like "T554", sizes like "65W") name one product: all must match. */
const codes = (text: string) => words(text).filter((w) => /\d/.test(w));
const sameCodes = (wanted: string, title: string) => {
  const have = new Set(codes(title));
  return codes(wanted).every((c) => have.has(c));
};

const blank = (name: string): Item => ({
  name,
  viaHistory: false,
  qty: 1,
  qtyStated: false,
  candidates: [],
  rejected: new Set(),
  searches: 0,
  outOfStockNoticed: false,
});
const MAX_SEARCHES = 3;

export function createCartStrategy(): Strategy {
  let items: Item[] = [];
  let lines: Line[] = [];
  let asked = false;
  let historyCards: Card[] | null = null;
  let confirmed = false;
  const oosNotices: string[] = [];
  /** Lines to take out although no wanted item claims them (a rejected same-name product). */
  const extraLines = new Set<string>();

  const shortOf = (card: Card) => `${card.key_attrs.brand} ${categoryNoun(String(card.key_attrs.category))}`;

  function absorb(results: ToolResult[], calls: Map<number, Item>) {
    results.forEach((r, index) => {
      const item = calls.get(index);
      if (r.error !== null) {
        if (item && /out of stock|only \d+ of/.test(r.error) && r.name === 'cart.add') noticeOutOfStock(item);
        return;
      }
      if (r.name === 'catalog.search' && item) pickCard(item, r.result as Card[]);
      if (r.name === 'user.get_visit_history') {
        historyCards = r.result as Card[];
        for (const it of items.filter((i) => i.viaHistory && !i.productId)) pickHistoryCard(it, historyCards);
      }
      if (r.name === 'catalog.get_variants' && item) item.variants = (r.result as { variants: VariantInfo[] }).variants;
      if (r.name.startsWith('cart.')) lines = (r.result as { lines: Line[] }).lines.map((l) => ({ ...l }));
    });
  }

  function pickCard(item: Item, cards: Card[]) {
    const scored = cards
      .filter(
        (c) => !item.rejected.has(c.product_id) && (item.price === undefined || Math.abs(c.price - item.price) < 0.01),
      )
      .map((card) => ({ card, score: nameSimilarity(item.name, card.title) }))
      .filter((x) => x.score >= MIN_TITLE_MATCH && sameCodes(item.name, x.card.title));
    scored.sort((a, b) => b.score - a.score);
    item.candidates = scored.filter((x) => x.score === scored[0].score).map((x) => x.card);
    if (item.candidates.length > 0) adopt(item, item.candidates.shift()!);
  }

  /** The customer says the product we added is not theirs: try the next one with that name, or search again. */
  function reject(item: Item) {
    item.rejected.add(item.productId!);
    item.productId = undefined;
    item.variants = undefined;
    const next = item.candidates.shift();
    if (next) adopt(item, next);
  }

  function pickHistoryCard(item: Item, cards: Card[]) {
    let best: { card: Card; score: number } | null = null;
    for (const card of cards) {
      const score = coverage(item.name, `${shortOf(card)} ${card.title}`);
      if (!best || score > best.score) best = { card, score };
    }
    if (best && best.score >= 0.5) adopt(item, best.card);
  }

  function adopt(item: Item, card: Card) {
    item.productId = card.product_id;
    item.title = card.title;
    item.short = shortOf(card);
  }

  function noticeOutOfStock(item: Item) {
    if (item.outOfStockNoticed) return;
    item.outOfStockNoticed = true;
    oosNotices.push(
      `Sorry, the ${item.variantValue ? `${item.variantValue} ` : ''}${item.title ?? item.name} is out of stock.`,
    );
  }

  /** The item a later message refers to ("Acme charger", a title, or "Blue Acme charger"). */
  function itemFor(ref: string): Item | undefined {
    let best: { item: Item; score: number } | null = null;
    for (const item of items) {
      const score = Math.max(
        coverage(item.short ?? item.name, ref),
        coverage(ref, item.title ?? item.name),
        coverage(item.name, ref),
      );
      if (!best || score > best.score) best = { item, score };
    }
    return best && best.score >= 0.5 ? best.item : undefined;
  }

  function listen(message: string) {
    if (/everything i need/i.test(message)) confirmed = true;
    for (const news of parseNews(message)) {
      const item = itemFor(news.ref);
      if (!item) continue;
      if (news.kind === 'variant') item.variantValue = news.value;
      if (news.kind === 'qty') item.qty = news.qty;
      if (news.kind === 'extra') {
        const ours = lines.find((l) => l.product_id === item.productId);
        if (ours && item.qty > 0 && nameSimilarity(news.ref, item.title ?? item.name) >= 0.9) {
          extraLines.add(ours.line_id);
          reject(item);
        } else item.qty = 0;
      }
      if (news.kind === 'alternative') {
        // "the Blue Acme mug": the value is what is left after the item's own name
        const known = words(item.short ?? item.name);
        item.variantValue = words(news.ref)
          .filter((w) => !known.some((k) => sameWord(k, w)))
          .join(' ');
        item.outOfStockNoticed = false;
      }
    }
    // "I didn't ask for the X" can name something we never meant to add
    const extra = /didn.?t ask for the (.+?)\.?$/i.exec(message);
    if (extra && !items.some((i) => i.qty === 0)) {
      const line = lines.find((l) => nameSimilarity(extra[1], titleOfLine(l)) >= 0.6);
      if (line)
        items.push({
          ...blank(titleOfLine(line)),
          productId: line.product_id,
          title: titleOfLine(line),
          qty: 0,
          qtyStated: true,
        });
    }
  }

  const titleOfLine = (l: Line) => l.title ?? l.product_id;

  function chosenVariant(item: Item): VariantInfo | null | undefined {
    if (!item.variantValue) return null;
    if (!item.variants) return undefined;
    if (item.variants.length === 0) return null;
    const value = item.variantValue;
    const scored = item.variants.map((v) => ({ v, score: nameSimilarity(value, String(Object.values(v.attrs)[0])) }));
    scored.sort((a, b) => b.score - a.score);
    return scored[0].score > 0 ? scored[0].v : item.variants[0];
  }

  function plan(budget: number, lastTurn: boolean): { calls: ToolCall[]; owners: Map<number, Item> } {
    const calls: ToolCall[] = [];
    const owners = new Map<number, Item>();
    const push = (call: ToolCall, item?: Item) => {
      if (calls.length >= budget) return false;
      if (item) owners.set(calls.length, item);
      calls.push(call);
      return true;
    };
    // fix the cart first: lines we do not want, wrong variants, wrong quantities
    for (const line of lines) {
      const item = items.find((i) => i.productId === line.product_id);
      const variant = item ? chosenVariant(item) : null;
      const wrongVariant =
        item && variant !== undefined && item.variantValue && variant && line.variant_id !== variant.variant_id;
      if (!item || item.qty === 0 || wrongVariant || extraLines.has(line.line_id))
        push({ name: 'cart.remove', args: { line_id: line.line_id } });
      else if (line.qty !== item.qty)
        push({ name: 'cart.set_quantity', args: { line_id: line.line_id, quantity: item.qty } });
    }
    // the final turn carries no calls: a failing call there would void the whole episode
    if (lastTurn) return { calls: [], owners };
    let historyAsked = false;
    for (const item of items) {
      if (item.qty === 0) continue;
      if (!item.productId) {
        if (item.viaHistory) {
          if (!historyAsked && historyCards === null) push({ name: 'user.get_visit_history', args: {} });
          historyAsked = true;
        } else if (item.searches < MAX_SEARCHES && push({ name: 'catalog.search', args: searchArgs(item) }, item))
          item.searches++;
        continue;
      }
      const variant = chosenVariant(item);
      if (variant === undefined) {
        push({ name: 'catalog.get_variants', args: { product_id: item.productId } }, item);
        continue;
      }
      const inCart = lines.some(
        (l) => l.product_id === item.productId && (variant === null || l.variant_id === variant.variant_id),
      );
      if (inCart) continue;
      if (variant && variant.stock_qty < item.qty) {
        noticeOutOfStock(item);
        continue;
      }
      if (item.outOfStockNoticed) continue;
      push(
        {
          name: 'cart.add',
          args: { product_id: item.productId, variant_id: variant?.variant_id ?? null, quantity: item.qty },
        },
        item,
      );
    }
    return { calls, owners };
  }

  let owners = new Map<number, Item>();

  return {
    envId: 'CART',
    step(input: TurnInput): TurnOutput {
      if (items.length === 0 && !asked) items = parseOpening(input.message).map((w) => ({ ...blank(w.name), ...w }));
      absorb(input.results, owners);
      if (asked) listen(input.message);
      if (items.length === 0) return { message: 'Here is your cart.', calls: [], answer: {} };
      const lastTurn = input.turnsLeft <= 1;
      const next = plan(input.budget, lastTurn);
      owners = next.owners;
      const notices = oosNotices.splice(0);
      const nothingToDo = next.calls.length === 0 && notices.length === 0;
      if (lastTurn || confirmed || (nothingToDo && asked))
        return { message: 'Your cart is ready.', calls: [], answer: {} };
      if (!asked && items.some((i) => !i.variantValue || !i.qtyStated)) {
        asked = true;
        return {
          message: 'Do you need a particular version or option of any item, and how many of each?',
          calls: next.calls,
        };
      }
      asked = true;
      return { message: notices.join(' ') || 'Adding your items now.', calls: next.calls };
    },
  };
}
