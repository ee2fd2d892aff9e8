// return.check_eligibility, return.initiate, return.exchange. Eligibility and
// fees live in world/returns.ts, shared with the RETURN verifier.

import { z } from 'zod';
import { isDeniedCategory } from '../catalog/taxonomy';
import type { Order, OrderLine } from '../world/orders';
import {
  checkEligibility,
  nextRecordId,
  RETURN_FEES,
  RETURN_METHODS,
  returnFee,
  RETURN_REASONS,
  restockingFeePercent,
  type ExchangeRecord,
  type ReturnRecord,
} from '../world/returns';
import type { WorldState } from '../world/state';
import { stockFor, unitPrice } from '../world/stock';
import { findVariant } from '../world/variants';
import { ENGINE_VERSION, REV3_RULES } from '../version';
import { requireOrder } from './order-tools';
import { defineTool, ToolError } from './registry';

const lineArgs = { order_id: z.string().min(1), line_id: z.string().min(1) };

function requireLine(world: WorldState, orderId: string, lineId: string): { order: Order; line: OrderLine } {
  const order = requireOrder(world, orderId);
  const line = order.lines.find((l) => l.line_id === lineId);
  if (!line)
    throw new ToolError(
      `order ${orderId} has no line "${lineId}" (its lines: ${order.lines.map((l) => l.line_id).join(', ')})`,
    );
  return { order, line };
}

const money = (x: number) => Math.round(x * 100) / 100;

export const returnCheckEligibility = defineTool({
  name: 'return.check_eligibility',
  description:
    'Whether an order line can be returned now: the return window (counted from the delivery date), days since purchase and delivery, the methods and their fees, and the reason.',
  args: z.strictObject(lineArgs),
  run(args, ctx) {
    const { order, line } = requireLine(ctx.world, args.order_id, args.line_id);
    return {
      order_id: order.order_id,
      line_id: line.line_id,
      product_id: line.product_id,
      title: line.title,
      ...checkEligibility(ctx.world, order, line, ctx.engineVersion),
    };
  },
  seen: (result) => [(result as { product_id: string }).product_id],
  freshResult: true,
});

export const returnInitiate = defineTool({
  name: 'return.initiate',
  description: `Start a return of an order line for a refund. Fails when the line is not eligible. Fees: mail ${RETURN_FEES.mail} (free when the reason is defective), in_store ${RETURN_FEES.in_store}, pickup ${RETURN_FEES.pickup}; the refund also deducts the restocking fee of the store policy.`,
  args: z.strictObject({
    ...lineArgs,
    reason_code: z.enum(RETURN_REASONS),
    method: z.enum(RETURN_METHODS),
  }),
  run(args, ctx) {
    const { world } = ctx;
    const { order, line } = requireLine(world, args.order_id, args.line_id);
    const eligibility = checkEligibility(world, order, line, ctx.engineVersion);
    if (!eligibility.eligible) throw new ToolError(`line ${line.line_id} cannot be returned: ${eligibility.reason}`);
    const fee = returnFee(args.method, args.reason_code, ctx.engineVersion);
    const price = line.unit_price * line.qty;
    // v3: the restocking fee the policy rules state is deducted too (v1/v2 refunds ignored it)
    const restocking =
      (ctx.engineVersion ?? ENGINE_VERSION) >= REV3_RULES
        ? money((price * restockingFeePercent(line.category, order.total, args.method, args.reason_code)) / 100)
        : null;
    const record: ReturnRecord = {
      return_id: nextRecordId('RET', world),
      order_id: order.order_id,
      line_id: line.line_id,
      product_id: line.product_id,
      qty: line.qty,
      reason_code: args.reason_code,
      method: args.method,
      fee,
      ...(restocking === null ? {} : { restocking_fee: restocking }),
      // v3: never below zero (a fee larger than a cheap item's price refunds nothing)
      refund_amount: money(restocking === null ? price - fee : Math.max(0, price - fee - restocking)),
      status: 'INITIATED',
      created_date: world.today,
      turn: ctx.turn,
    };
    world.returns.push(record);
    const { turn: _turn, ...shown } = record;
    return shown;
  },
  seen: (result) => [(result as { product_id: string }).product_id],
  freshResult: true,
});

export const returnExchange = defineTool({
  name: 'return.exchange',
  description:
    'Exchange an eligible order line for another product of the same category (optionally a specific variant). Any price difference is charged or refunded.',
  args: z.strictObject({
    ...lineArgs,
    new_product_id: z.string().min(1),
    new_variant_id: z.string().min(1).nullable().optional(),
  }),
  run(args, ctx) {
    const { world, catalog } = ctx;
    const { order, line } = requireLine(world, args.order_id, args.line_id);
    const eligibility = checkEligibility(world, order, line, ctx.engineVersion);
    if (!eligibility.eligible) throw new ToolError(`line ${line.line_id} cannot be exchanged: ${eligibility.reason}`);
    const product = catalog.get(args.new_product_id);
    if (!product) throw new ToolError(`unknown new_product_id "${args.new_product_id}"`);
    if (isDeniedCategory(product.category)) throw new ToolError(`${product.id} cannot be sold`);
    if (product.category !== line.category)
      throw new ToolError(
        `an exchange must be for an item of the same category (${line.category}); ${product.id} is ${product.category} — return the line and order the other item instead`,
      );
    const variantId = args.new_variant_id ?? null;
    if (variantId && !findVariant(product, variantId))
      throw new ToolError(`variant "${variantId}" does not belong to product ${product.id} (see catalog.get_variants)`);
    const stock = stockFor(world, catalog, product.id, variantId) ?? 0;
    if (stock < line.qty)
      throw new ToolError(
        stock === 0
          ? `${variantId ?? product.id} is out of stock`
          : `only ${stock} of ${variantId ?? product.id} in stock, the line has ${line.qty}`,
      );
    const record: ExchangeRecord = {
      exchange_id: nextRecordId('EXC', world),
      order_id: order.order_id,
      line_id: line.line_id,
      product_id: line.product_id,
      new_product_id: product.id,
      new_variant_id: variantId,
      qty: line.qty,
      price_difference: money((unitPrice(catalog, product.id, variantId) - line.unit_price) * line.qty),
      status: 'INITIATED',
      created_date: world.today,
      turn: ctx.turn,
    };
    world.exchanges.push(record);
    const { turn: _turn, ...shown } = record;
    return Object.assign(shown, { new_title: product.title });
  },
  // The new product is the agent's own choice echoed back, not a retrieval (as with the cart).
  seen: (result) => [(result as { product_id: string }).product_id],
  freshResult: true,
});
