// order.list, order.get_status, order.checkout.
//
// Choice (docs/environments.md): order.list also returns the customer's
// addresses and payment methods, so an agent can check out without a separate
// profile tool (the tool set stays the 17 of SPEC §5).

import { z } from 'zod';
import { plainCopy } from '../copy';
import { allOrders, byNewestOrder, findOrder, newOrder, type Order, type OrderLine } from '../world/orders';
import { addDays, daysBetween, cartKey, type WorldState } from '../world/state';
import { stockFor, unitPrice } from '../world/stock';
import { defineTool, ToolError } from './registry';

export interface OrderLineView {
  line_id: string;
  product_id: string;
  variant_id: string | null;
  title: string;
  qty: number;
  unit_price: number;
}

const lineView = (l: OrderLine): OrderLineView => ({
  line_id: l.line_id,
  product_id: l.product_id,
  variant_id: l.variant_id,
  title: l.title,
  qty: l.qty,
  unit_price: l.unit_price,
});

export function orderView(o: Order) {
  return {
    order_id: o.order_id,
    status: o.status,
    placed_date: o.placed_date,
    shipped_date: o.shipped_date,
    delivered_date: o.delivered_date,
    cancelled_date: o.cancelled_date,
    eta: o.eta,
    carrier: o.carrier,
    tracking_number: o.tracking_number,
    shipping_address_id: o.shipping_address_id,
    payment_method_id: o.payment_method_id,
    total: o.total,
    lines: o.lines.map(lineView),
  };
}
export type OrderView = ReturnType<typeof orderView>;

export function requireOrder(world: WorldState, orderId: string): Order {
  const order = findOrder(world, orderId);
  if (!order) throw new ToolError(`unknown order_id "${orderId}" (see order.list)`);
  return order;
}

// Loops, not flatMap: runs for every order tool call (~5 % of a STATUS step, issue 13).
function productIdsOf(orders: Array<{ lines: OrderLineView[] }>): string[] {
  const ids: string[] = [];
  for (const o of orders) for (const l of o.lines) ids.push(l.product_id);
  return ids;
}

export const orderList = defineTool({
  name: 'order.list',
  description:
    "The customer's orders placed in the last `days` days (default 30), newest first, with status, dates and lines; also the customer's addresses and payment methods (ids for order.checkout).",
  args: z.strictObject({
    days: z.int().min(1).max(365).default(30).describe('look-back window in days (1–365, default 30)'),
  }),
  run(args, ctx) {
    const orders = allOrders(ctx.world)
      .filter((o) => daysBetween(o.placed_date, ctx.world.today) <= args.days)
      .sort(byNewestOrder);
    return {
      today: ctx.world.today,
      days: args.days,
      orders: orders.map(orderView),
      // copies: the result is fresh (freshResult), the profile lives on in the world
      addresses: plainCopy(ctx.world.addresses),
      payment_methods: plainCopy(ctx.world.paymentMethods),
    };
  },
  seen: (result) => productIdsOf((result as { orders: OrderView[] }).orders),
  freshResult: true,
});

export const orderGetStatus = defineTool({
  name: 'order.get_status',
  description:
    'Status of one order: CONFIRMED, SHIPPED, IN_TRANSIT, DELIVERED or CANCELLED, with dates, eta, carrier, tracking number and lines.',
  args: z.strictObject({ order_id: z.string().min(1) }),
  run: (args, ctx) => orderView(requireOrder(ctx.world, args.order_id)),
  seen: (result) => productIdsOf([result as OrderView]),
  freshResult: true,
});

export const orderCheckout = defineTool({
  name: 'order.checkout',
  description:
    'Place an order for everything in the cart (the cart is emptied). Returns the new CONFIRMED order. Address and payment ids come from order.list.',
  args: z.strictObject({ shipping_address_id: z.string().min(1), payment_method_id: z.string().min(1) }),
  run(args, ctx) {
    const { world, catalog } = ctx;
    if (world.cart.length === 0) throw new ToolError('the cart is empty; add items before checking out');
    if (!world.addresses.some((a) => a.address_id === args.shipping_address_id))
      throw new ToolError(
        `unknown shipping_address_id "${args.shipping_address_id}" (addresses: ${world.addresses.map((a) => a.address_id).join(', ') || 'none'})`,
      );
    if (!world.paymentMethods.some((p) => p.payment_method_id === args.payment_method_id))
      throw new ToolError(
        `unknown payment_method_id "${args.payment_method_id}" (payment methods: ${world.paymentMethods.map((p) => p.payment_method_id).join(', ') || 'none'})`,
      );
    for (const line of world.cart) {
      const stock = stockFor(world, catalog, line.product_id, line.variant_id) ?? 0;
      if (stock < line.qty)
        throw new ToolError(
          `${line.variant_id ?? line.product_id} has only ${stock} in stock, the cart holds ${line.qty}`,
        );
    }
    const orderId = `ORD-9${String(world.placedOrders.length + 1).padStart(4, '0')}`;
    const lines: OrderLine[] = world.cart.map((l, i) => {
      const p = catalog.get(l.product_id)!;
      return {
        line_id: `${orderId}-L${i + 1}`,
        product_id: l.product_id,
        variant_id: l.variant_id,
        title: p.title,
        category: p.category,
        qty: l.qty,
        unit_price: unitPrice(catalog, l.product_id, l.variant_id),
      };
    });
    const shipDays = Math.max(...world.cart.map((l) => catalog.get(l.product_id)!.shipDays));
    const order = newOrder({
      order_id: orderId,
      placed_date: world.today,
      eta: addDays(world.today, shipDays),
      shipping_address_id: args.shipping_address_id,
      payment_method_id: args.payment_method_id,
      lines,
    });
    world.placedOrders.push(order);
    for (const l of world.cart)
      world.cartChanges.push({
        turn: ctx.turn,
        tool: 'order.checkout',
        key: cartKey(l.product_id, l.variant_id),
        qtyBefore: l.qty,
        qtyAfter: 0,
      });
    world.cart = [];
    return orderView(order);
  },
  seen: (result) => productIdsOf([result as OrderView]),
  freshResult: true,
});
