// The agent-visible world of one episode: the cart, stock changes, the
// customer's browsing history and "today". Tools read and change it; the hidden
// goal lives elsewhere.

import type { Address, PaymentMethod } from './customer-profile';
import type { Order } from './orders';
import type { ExchangeRecord, ReturnRecord } from './returns';

export interface CartLine {
  line_id: string;
  product_id: string;
  variant_id: string | null;
  qty: number;
}

export interface CartChange {
  turn: number;
  tool: string;
  key: string;
  qtyBefore: number;
  qtyAfter: number;
}

/** A p_oos change: the stock of a product or variant dropped to 0 at a turn. */
export interface StockChange {
  id: string;
  turn: number;
  before: number;
}

export interface WorldState {
  /** ISO date (YYYY-MM-DD), derived from the seed. */
  today: string;
  cart: CartLine[];
  nextLineNo: number;
  /** Every successful change to a cart key, for reward evidence. */
  cartChanges: CartChange[];
  /** Stock that differs from the catalog (items gone out of stock mid-episode), by product or variant id. */
  stockOverrides: Map<string, number>;
  /** Every p_oos change, in order (the verifiers judge stock as the agent could know it). */
  stockChanges: StockChange[];
  /** Ids some goal relies on to stay solvable: p_oos never takes them (JOURNEY shares one world). */
  protectedStock: Set<string>;
  /** Product ids shown by user.get_visit_history, most recent first. */
  visitHistory: string[];
  /** The customer's order history (environments fill it in generate). */
  orders: Order[];
  /** Orders created during the episode by order.checkout. */
  placedOrders: Order[];
  /** Returns and exchanges initiated during the episode. */
  returns: ReturnRecord[];
  exchanges: ExchangeRecord[];
  addresses: Address[];
  paymentMethods: PaymentMethod[];
}

export function createWorld(today: string): WorldState {
  return {
    today,
    cart: [],
    nextLineNo: 1,
    cartChanges: [],
    stockOverrides: new Map(),
    stockChanges: [],
    protectedStock: new Set(),
    visitHistory: [],
    orders: [],
    placedOrders: [],
    returns: [],
    exchanges: [],
    addresses: [],
    paymentMethods: [],
  };
}

/** The cart key the CART verifier counts: product::variant, or product alone. */
export function cartKey(productId: string, variantId: string | null | undefined): string {
  return variantId ? `${productId}::${variantId}` : productId;
}

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2025, 0, 1);

/** A date in 2025–2026 from a number (the episode's seed stream), as YYYY-MM-DD. */
export function dateFromUnit(u: number): string {
  return isoDate(EPOCH + Math.floor(u * 730) * DAY_MS);
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// Histories, eligibility and order lists parse and format the same few hundred days over and over:
// each day is parsed and formatted once (bounded caches). Whole days only; anything else (a
// fractional count, an unparsable date) takes the plain formula, so results are unchanged.
const DAY_OF_ISO = new Map<string, number>();
const ISO_OF_DAY = new Map<number, string>();
// 1970-01-01 to 2149 by day number: an array read instead of a Map hashing a double (order histories add days to every date)
const ISO_BY_DAY = new Array<string | undefined>(1 << 16).fill(undefined);
const parseDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

function dayOf(iso: string): number {
  let day = DAY_OF_ISO.get(iso);
  if (day === undefined) {
    day = parseDay(iso) / DAY_MS;
    if (DAY_OF_ISO.size < 100_000) DAY_OF_ISO.set(iso, day);
  }
  return day;
}

export function addDays(iso: string, days: number): string {
  const day = dayOf(iso) + days;
  if (!Number.isInteger(day) || !Number.isInteger(days)) return isoDate(parseDay(iso) + days * DAY_MS);
  const inTable = day >= 0 && day < ISO_BY_DAY.length;
  let out = inTable ? ISO_BY_DAY[day] : ISO_OF_DAY.get(day);
  if (out === undefined) {
    out = isoDate(day * DAY_MS);
    if (inTable) ISO_BY_DAY[day] = out;
    else if (ISO_OF_DAY.size < 100_000) ISO_OF_DAY.set(day, out);
  }
  return out;
}

export function daysBetween(fromIso: string, toIso: string): number {
  const from = dayOf(fromIso);
  const to = dayOf(toIso);
  if (Number.isInteger(from) && Number.isInteger(to)) return to - from;
  return Math.round((parseDay(toIso) - parseDay(fromIso)) / DAY_MS);
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The cart's contents as a flat list (line id, product, variant, qty per line), to tell whether a
 * turn changed it: what comparing JSON.stringify(cart) before and after tells (a line has exactly
 * these four fields), without building two strings per step (issue 13, ninth round).
 */
export function cartContents(cart: readonly CartLine[]): unknown[] {
  const out = new Array<unknown>(cart.length * 4);
  for (let i = 0; i < cart.length; i++) {
    const line = cart[i];
    out[4 * i] = line.line_id;
    out[4 * i + 1] = line.product_id;
    out[4 * i + 2] = line.variant_id;
    out[4 * i + 3] = line.qty;
  }
  return out;
}

/** Whether the cart still holds what cartContents recorded. */
export function cartHolds(cart: readonly CartLine[], contents: readonly unknown[]): boolean {
  if (cart.length * 4 !== contents.length) return false;
  for (let i = 0; i < cart.length; i++) {
    const line = cart[i];
    if (
      line.line_id !== contents[4 * i] ||
      line.product_id !== contents[4 * i + 1] ||
      line.variant_id !== contents[4 * i + 2] ||
      line.qty !== contents[4 * i + 3]
    )
      return false;
  }
  return true;
}
