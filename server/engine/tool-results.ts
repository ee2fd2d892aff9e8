// The shapes of tool results, for code that renders or parses them (the playground's cards,
// the heuristic agent). Types only: they come from the tools that produce the results.

import type { Eligibility } from './world/returns';

export type { ProductCard } from './tools/catalog-tools';
export type { CartView } from './tools/cart-tools';
export type { OrderLineView, OrderView } from './tools/order-tools';
export type { ExchangeRecord, ReturnRecord } from './world/returns';

/** return.check_eligibility */
export type EligibilityView = Eligibility & { order_id: string; line_id: string; product_id: string; title: string };
