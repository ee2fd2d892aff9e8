// The customer's orders (SPEC §4; addresses and payment methods: customer-profile.ts). Histories are
// generated per episode from the episode's Rng; every date is relative to
// world.today, never the wall clock.

import type { Catalog, Product } from '../catalog/types';
import type { Rng } from '../random';
import { fieldReader } from './catalog-columns';
import { ensureCustomerProfile } from './customer-profile';
import { describeKeyOf, orderableKeys, type OrderableKeys } from './describe-keys';
import { addDays, daysBetween, type WorldState } from './state';

export const ORDER_STATUSES = ['CONFIRMED', 'SHIPPED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Share of each status in a generated history (SPEC §4). */
export const STATUS_WEIGHTS: Readonly<Record<OrderStatus, number>> = {
  CONFIRMED: 0.1,
  SHIPPED: 0.15,
  IN_TRANSIT: 0.2,
  DELIVERED: 0.45,
  CANCELLED: 0.1,
};

/** Orders are dated at most this many days before today. */
export const HISTORY_DAYS = 90;

export interface OrderLine {
  line_id: string;
  product_id: string;
  variant_id: string | null;
  title: string;
  category: string;
  qty: number;
  unit_price: number;
}

export interface Order {
  order_id: string;
  status: OrderStatus;
  placed_date: string;
  shipped_date: string | null;
  delivered_date: string | null;
  cancelled_date: string | null;
  /** Expected delivery (the delivery date once delivered); null when cancelled. */
  eta: string | null;
  carrier: string | null;
  /** Set once the parcel has shipped (SHIPPED, IN_TRANSIT, DELIVERED). */
  tracking_number: string | null;
  shipping_address_id: string;
  payment_method_id: string;
  lines: OrderLine[];
  total: number;
}

const CARRIERS = ['UPS', 'FedEx', 'USPS', 'DHL'];
const CARRIER_PREFIX: Readonly<Record<string, string>> = Object.fromEntries(
  CARRIERS.map((c) => [c, c.slice(0, 2).toUpperCase()]),
);

// ---------- products for order lines ----------

/** Two lines of one history never share brand and category, so "the {brand} {noun}" names exactly one line. */
export const describeKey = (p: Pick<Product, 'brand' | 'category'>) => describeKeyOf(p.brand, p.category);

export function usedDescribeKeys(world: WorldState, catalog: Catalog): Set<string> {
  const keys = new Set<string>();
  const fields = fieldReader(catalog);
  const orderable = orderableKeys(catalog); // an orderable product's key, kept per index
  for (const o of allOrders(world))
    for (const l of o.lines) {
      if (!catalog.indexOf) {
        const p = catalog.get(l.product_id);
        if (p) keys.add(describeKey(p));
        continue;
      }
      const index = catalog.indexOf(l.product_id);
      if (index >= 0) keys.add(orderable.keyOf(index) ?? describeKeyOf(fields.brand(index), fields.category(index)));
    }
  return keys;
}

/** A random orderable product passing `accept` whose describe key is unused; null if none is found. */
export function sampleProduct(
  catalog: Catalog,
  rng: Rng,
  used: Set<string>,
  accept: (p: Product) => boolean = () => true,
): Product | null {
  // The same tests as `!isDeniedCategory(p.category) && p.price > 0 && accept(p) &&
  // !used.has(describeKey(p))` (all pure, so their order is free), the column ones first: a
  // rejected index builds no Product.
  const keys = orderableKeys(catalog);
  for (let attempt = 0; attempt < 4000; attempt++) {
    const index = rng.int(0, catalog.size - 1);
    if (!orderableUnused(keys, index, used)) continue;
    const p = catalog.at(index);
    if (accept(p)) return p;
  }
  return null;
}

function orderableUnused(keys: OrderableKeys, index: number, used: Set<string>): boolean {
  const key = keys.keyOf(index);
  return key !== null && !used.has(key);
}

/** sampleProduct without accept, as an index (the same draws): a history line needs no Product. */
function sampleIndex(catalog: Catalog, keys: OrderableKeys, rng: Rng, used: Set<string>): number {
  for (let attempt = 0; attempt < 4000; attempt++) {
    const index = rng.int(0, catalog.size - 1);
    if (orderableUnused(keys, index, used)) return index;
  }
  return -1;
}

/** A random orderable product from some of the given categories (dense sampling for rare ones like grocery). */
export function sampleFromCategories(
  catalog: Catalog,
  rng: Rng,
  categories: readonly string[],
  used: Set<string>,
): Product | null {
  const keys = orderableKeys(catalog);
  for (const category of rng.shuffle(categories)) {
    // orderable and unused (orderableUnused) by column: only the product kept is built
    for (const ix of rng.sample(catalog.indicesInCategory(category), 40))
      if (orderableUnused(keys, ix, used)) return catalog.at(ix);
  }
  return null;
}

export function makeLine(orderId: string, n: number, product: Product, qty: number): OrderLine {
  return {
    line_id: `${orderId}-L${n}`,
    product_id: product.id,
    variant_id: null,
    title: product.title,
    category: product.category,
    qty,
    unit_price: product.price,
  };
}

export function orderTotal(lines: readonly OrderLine[]): number {
  return Math.round(lines.reduce((s, l) => s + l.qty * l.unit_price, 0) * 100) / 100;
}

/** A just-placed order (CONFIRMED, nothing shipped yet). Key order matters: orders are serialised into tool results. */
export function newOrder(o: {
  order_id: string;
  placed_date: string;
  eta?: string | null;
  shipping_address_id: string;
  payment_method_id: string;
  lines: OrderLine[];
}): Order {
  return {
    order_id: o.order_id,
    status: 'CONFIRMED',
    placed_date: o.placed_date,
    shipped_date: null,
    delivered_date: null,
    cancelled_date: null,
    eta: o.eta ?? null,
    carrier: null,
    tracking_number: null,
    shipping_address_id: o.shipping_address_id,
    payment_method_id: o.payment_method_id,
    lines: o.lines,
    total: orderTotal(o.lines),
  };
}

// ---------- dates and statuses ----------

function pickStatus(rng: Rng): OrderStatus {
  let u = rng.next();
  for (const s of ORDER_STATUSES) {
    u -= STATUS_WEIGHTS[s];
    if (u < 0) return s;
  }
  return 'DELIVERED';
}

type OrderDates = Pick<Order, 'placed_date' | 'shipped_date' | 'delivered_date' | 'cancelled_date' | 'eta'>;

// module-level (closures per call, renamed by tsx's __name, were ~5 % of a RETURN reset); no spread: slow in V8
const ago = (today: string, n: number) => addDays(today, -n);
const dates = (
  placed_date: string,
  shipped_date: string | null,
  delivered_date: string | null,
  cancelled_date: string | null,
  eta: string | null,
): OrderDates => ({ shipped_date, delivered_date, cancelled_date, placed_date, eta });

/** Dates consistent with the status; `deliveredDaysAgo` pins the delivery day of a DELIVERED order. */
export function datesFor(status: OrderStatus, today: string, rng: Rng, deliveredDaysAgo?: number): OrderDates {
  switch (status) {
    case 'CONFIRMED': {
      const placed = rng.int(0, 2);
      return dates(ago(today, placed), null, null, null, addDays(today, rng.int(3, 8)));
    }
    case 'SHIPPED': {
      const placed = rng.int(1, 5);
      return dates(ago(today, placed), ago(today, placed - 1), null, null, addDays(today, rng.int(1, 6)));
    }
    case 'IN_TRANSIT': {
      const placed = rng.int(2, 10);
      return dates(ago(today, placed), ago(today, placed - 1), null, null, addDays(today, rng.int(1, 4)));
    }
    case 'DELIVERED': {
      const delivered = deliveredDaysAgo ?? rng.int(0, HISTORY_DAYS - 8);
      const transit = Math.min(rng.int(2, 8), HISTORY_DAYS - delivered);
      const on = ago(today, delivered);
      return dates(ago(today, delivered + transit), ago(today, delivered + transit - 1), on, null, on);
    }
    case 'CANCELLED': {
      const placed = rng.int(0, HISTORY_DAYS);
      return dates(ago(today, placed), null, null, ago(today, Math.max(0, placed - rng.int(0, 2))), null);
    }
  }
}

/** Give an order a new status (and consistent dates, carrier and tracking). */
export function setOrderStatus(
  order: Order,
  status: OrderStatus,
  today: string,
  rng: Rng,
  deliveredDaysAgo?: number,
): void {
  const dates = datesFor(status, today, rng, deliveredDaysAgo);
  order.placed_date = dates.placed_date;
  order.shipped_date = dates.shipped_date;
  order.delivered_date = dates.delivered_date;
  order.cancelled_date = dates.cancelled_date;
  order.eta = dates.eta;
  order.status = status;
  const shipped = status === 'SHIPPED' || status === 'IN_TRANSIT' || status === 'DELIVERED';
  const carrier = shipped ? rng.pick(CARRIERS) : null;
  order.carrier = carrier;
  order.tracking_number = carrier
    ? `${CARRIER_PREFIX[carrier]}${rng.int(100000, 999999)}${rng.int(100000, 999999)}`
    : null;
}

function newOrderId(taken: Set<string>, rng: Rng): string {
  for (;;) {
    const id = `ORD-${rng.int(10000, 89999)}`;
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * Newest first, then by id, as an account page lists them. Dates are ISO and ids "ORD-" + five
 * digits (fixed width): code-unit order is the order localeCompare gives, at a fraction of its cost.
 */
export const byNewestOrder = (a: Order, b: Order) =>
  a.placed_date < b.placed_date
    ? 1
    : a.placed_date > b.placed_date
      ? -1
      : a.order_id < b.order_id
        ? -1
        : a.order_id > b.order_id
          ? 1
          : 0;

export interface HistoryOptions {
  catalog: Catalog;
  world: WorldState;
  rng: Rng;
  count: number;
}

/** Appends `count` orders (1–5 lines each, real non-denied products, distinct describe keys) to world.orders. */
export function generateOrderHistory({ catalog, world, rng, count }: HistoryOptions): Order[] {
  ensureCustomerProfile(world, rng);
  const used = usedDescribeKeys(world, catalog);
  const taken = new Set(allOrders(world).map((o) => o.order_id));
  const fields = fieldReader(catalog);
  const keys = orderableKeys(catalog);
  const created: Order[] = [];
  for (let i = 0; i < count; i++) {
    const orderId = newOrderId(taken, rng);
    const lines: OrderLine[] = [];
    const nLines = rng.int(1, 5);
    for (let n = 1; n <= nLines; n++) {
      // makeLine's fields by column: materialising each line's product was most of a STATUS
      // reset at 100k products (issue 13)
      const index = sampleIndex(catalog, keys, rng, used);
      if (index < 0) break;
      const category = fields.category(index);
      used.add(keys.keyOf(index)!);
      lines.push({
        line_id: `${orderId}-L${n}`,
        product_id: fields.id(index),
        variant_id: null,
        title: fields.title(index),
        category,
        qty: rng.bernoulli(0.2) ? rng.int(2, 3) : 1,
        unit_price: fields.price(index),
      });
    }
    if (lines.length === 0) throw new Error(`orders: catalog ${catalog.id} has no orderable product`);
    const order = newOrder({
      order_id: orderId,
      placed_date: world.today,
      shipping_address_id: rng.pick(world.addresses).address_id,
      payment_method_id: rng.pick(world.paymentMethods).payment_method_id,
      lines,
    });
    setOrderStatus(order, pickStatus(rng), world.today, rng);
    world.orders.push(order);
    created.push(order);
  }
  world.orders.sort(byNewestOrder);
  return created;
}

/** Replace a line's product (the generator shaping a target), keeping ids. */
export function replaceLineProduct(order: Order, line: OrderLine, product: Product): void {
  line.product_id = product.id;
  line.title = product.title;
  line.category = product.category;
  line.unit_price = product.price;
  order.total = orderTotal(order.lines);
}

// ---------- lookups ----------

export const allOrders = (world: WorldState): Order[] => [...world.orders, ...world.placedOrders];

export function findOrder(world: WorldState, orderId: string): Order | undefined {
  return allOrders(world).find((o) => o.order_id === orderId);
}

export function daysSincePlaced(order: Order, today: string): number {
  return daysBetween(order.placed_date, today);
}

/** The agent-visible customer records, copied, for display. */
export function customerRecords(world: WorldState) {
  const copy = <T>(x: T): T => structuredClone(x);
  return {
    orders: copy(world.orders),
    placedOrders: copy(world.placedOrders),
    returns: copy(world.returns),
    exchanges: copy(world.exchanges),
    addresses: copy(world.addresses),
    paymentMethods: copy(world.paymentMethods),
  };
}
