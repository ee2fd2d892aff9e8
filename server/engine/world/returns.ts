// Return windows, eligibility and the records of initiated returns and
// exchanges (SPEC §4).
//
// Choice (docs/environments.md): the window is counted from the DELIVERY date,
// not the purchase date — an item cannot be sent back before it arrives, and
// slow shipping must not eat the customer's window. Day 0 is the delivery day;
// the item is eligible while days_since_delivery ≤ window_days, so with a
// 30-day window day 30 is the last day and day 31 is too late.

import type { Order, OrderLine } from './orders';
import { ENGINE_VERSION, REV3_RULES } from '../version';
import { applicableRules, type Facts } from './policy-kb';
import { addDays, daysBetween, type WorldState } from './state';

export const RETURN_REASONS = [
  'defective',
  'wrong_item',
  'not_as_described',
  'changed_mind',
  'too_large',
  'too_small',
  'arrived_late',
  'better_price_found',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_METHODS = ['mail', 'in_store', 'pickup'] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];

/**
 * The KB department a catalog category belongs to (the first path segment, matched loosely so
 * imported catalogs' names work too); undefined for departments the policy rules do not name.
 */
function policyDepartment(category: string): string | undefined {
  const dept = category.toLowerCase().split('/')[0];
  if (dept.includes('grocery') || dept.includes('food')) return 'grocery';
  if (dept.includes('electronic')) return 'electronics';
  if (dept.includes('cloth') || dept.includes('apparel')) return 'clothing';
  if (dept.includes('furniture')) return 'furniture';
  if (dept.startsWith('tool')) return 'tools';
  if (dept.includes('home') || dept.includes('kitchen')) return 'home_kitchen';
  if (dept.includes('office')) return 'office';
  return undefined;
}

/** The answer of the most specific policy rule of a world topic (the rules always cover every case). */
function policyAnswer(topic: string, facts: Facts): number {
  const rule = applicableRules(topic, facts)[0];
  if (!rule) throw new Error(`no ${topic} policy rule covers ${JSON.stringify(facts)}`);
  return Number(rule.answer);
}

/**
 * Return shipping fee by method; the policy rules make mail returns of defective items free
 * (engine v3). Engines v1/v2 charged by method alone, whatever the reason.
 */
export function returnFee(method: ReturnMethod, reason?: ReturnReason, engineVersion = ENGINE_VERSION): number {
  if (engineVersion < REV3_RULES) return RETURN_FEES[method];
  return policyAnswer('return_shipping_fee', {
    return_method: method,
    ...(reason === 'defective' ? { item_condition: 'defective' } : {}),
  });
}

/**
 * The restocking fee in percent of the line's price (engine v3): the policy rules charge it on
 * items returned for any reason but a defect, by department, order total and method.
 */
export function restockingFeePercent(category: string, orderTotal: number, method: ReturnMethod, reason: ReturnReason) {
  const department = policyDepartment(category);
  return policyAnswer('restocking_fee_percent', {
    ...(department ? { department } : {}),
    item_condition: reason === 'defective' ? 'defective' : 'opened',
    order_total: orderTotal,
    return_method: method,
  });
}

const feesOf = (reason?: ReturnReason) =>
  Object.fromEntries(RETURN_METHODS.map((m) => [m, returnFee(m, reason)])) as Record<ReturnMethod, number>;
/** Fees per method for a return that is not of a defective item, and for one that is. */
export const RETURN_FEES: Readonly<Record<ReturnMethod, number>> = feesOf();
export const DEFECTIVE_RETURN_FEES: Readonly<Record<ReturnMethod, number>> = feesOf('defective');

const WINDOW_DAYS = new Map<string, number>();

/**
 * Return window in days of a catalog category, from the policy rules (policy-tables.ts,
 * RETURN_WORLD_RULES): policy.search states the same window. 0 = not returnable.
 */
export function returnWindowDays(category: string): number {
  // kept per category: order histories and eligibility ask for the same few categories all the time
  let days = WINDOW_DAYS.get(category);
  if (days === undefined) {
    const department = policyDepartment(category);
    days = policyAnswer('return_window_days', department ? { department } : {});
    if (WINDOW_DAYS.size < 10_000) WINDOW_DAYS.set(category, days);
  }
  return days;
}

export interface Eligibility {
  eligible: boolean;
  window_days: number;
  days_since_purchase: number;
  /** null until the order is delivered. */
  days_since_delivery: number | null;
  delivered_date: string | null;
  /** Last day a return can be started (delivery date + window), when delivered and returnable. */
  return_by: string | null;
  /** Methods available now (empty when ineligible). */
  methods: ReturnMethod[];
  fees: Record<ReturnMethod, number>;
  /** The fees when the item is returned as defective (policy RET-05: free mail returns; engine v3 on). */
  fees_if_defective?: Record<ReturnMethod, number>;
  reason: string;
}

export interface ReturnRecord {
  return_id: string;
  order_id: string;
  line_id: string;
  product_id: string;
  qty: number;
  reason_code: ReturnReason;
  method: ReturnMethod;
  fee: number;
  /** Engine v3: the restocking fee the policy rules charge, in dollars (deducted from the refund). */
  restocking_fee?: number;
  refund_amount: number;
  status: 'INITIATED';
  created_date: string;
  /** Agent turn that initiated it (reward evidence). */
  turn: number;
}

export interface ExchangeRecord {
  exchange_id: string;
  order_id: string;
  line_id: string;
  product_id: string;
  new_product_id: string;
  new_variant_id: string | null;
  qty: number;
  /** New unit price − old unit price, times qty (positive: the customer pays the difference). */
  price_difference: number;
  status: 'INITIATED';
  created_date: string;
  turn: number;
}

/** Whether a return or exchange was already started for this line. */
export function initiatedFor(
  world: WorldState,
  orderId: string,
  lineId: string,
): ReturnRecord | ExchangeRecord | undefined {
  const match = (r: { order_id: string; line_id: string }) => r.order_id === orderId && r.line_id === lineId;
  return world.returns.find(match) ?? world.exchanges.find(match);
}

/**
 * Eligibility of one line as of world.today (the same function serves tools and verifiers), as
 * an episode of `engineVersion` shows it.
 */
export function checkEligibility(
  world: WorldState,
  order: Order,
  line: OrderLine,
  engineVersion = ENGINE_VERSION,
): Eligibility {
  const window = returnWindowDays(line.category);
  const sinceDelivery = order.delivered_date ? daysBetween(order.delivered_date, world.today) : null;
  const base = {
    window_days: window,
    days_since_purchase: daysBetween(order.placed_date, world.today),
    days_since_delivery: sinceDelivery,
    delivered_date: order.delivered_date,
    return_by: order.delivered_date && window > 0 ? addDays(order.delivered_date, window) : null,
    fees: { ...RETURN_FEES },
    ...(engineVersion >= REV3_RULES ? { fees_if_defective: { ...DEFECTIVE_RETURN_FEES } } : {}),
  };
  if (initiatedFor(world, order.order_id, line.line_id))
    return ineligible(base, 'a return or exchange was already initiated for this line');
  if (order.status === 'CANCELLED') return ineligible(base, 'the order was cancelled, so there is nothing to return');
  if (order.status !== 'DELIVERED' || sinceDelivery === null)
    return ineligible(base, `the order is ${order.status}; items can be returned once delivered`);
  if (window === 0) return ineligible(base, 'grocery items are not returnable');
  if (sinceDelivery > window)
    return ineligible(
      base,
      `the ${window}-day return window ended on ${base.return_by} (delivered ${sinceDelivery} days ago)`,
    );
  return Object.assign({}, base, {
    eligible: true,
    methods: [...RETURN_METHODS],
    reason: `within the ${window}-day return window (delivered ${sinceDelivery} day${sinceDelivery === 1 ? '' : 's'} ago; last day ${base.return_by})`,
  });
}

const ineligible = (base: Omit<Eligibility, 'eligible' | 'methods' | 'reason'>, reason: string): Eligibility =>
  Object.assign({}, base, { eligible: false, methods: [], reason });

export const nextRecordId = (prefix: 'RET' | 'EXC', world: WorldState) =>
  `${prefix}-${String(world.returns.length + world.exchanges.length + 1).padStart(4, '0')}`;
