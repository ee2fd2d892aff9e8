// cart.view, cart.add, cart.remove, cart.set_quantity.

import { z } from 'zod';
import type { Catalog } from '../catalog/types';
import { cartKey, type CartLine, type WorldState } from '../world/state';
import { stockFor, unitPrice } from '../world/stock';
import { findVariant } from '../world/variants';
import { defineTool, ToolError, type ToolContext } from './registry';

export interface CartView {
  lines: Array<CartLine & { title: string; unit_price: number }>;
  total_items: number;
  total_price: number;
}

export function viewCart(world: WorldState, catalog: Catalog): CartView {
  // Object.assign: `{ ...line, field }` is a slow path in V8 (issue 13)
  const lines = world.cart.map((line) =>
    Object.assign({}, line, {
      title: catalog.get(line.product_id)?.title ?? line.product_id,
      unit_price: unitPrice(catalog, line.product_id, line.variant_id),
    }),
  );
  return {
    lines,
    total_items: lines.reduce((n, l) => n + l.qty, 0),
    total_price: Math.round(lines.reduce((s, l) => s + l.qty * l.unit_price, 0) * 100) / 100,
  };
}

function recordChange(ctx: ToolContext, tool: string, line: CartLine, before: number, after: number) {
  ctx.world.cartChanges.push({
    turn: ctx.turn,
    tool,
    key: cartKey(line.product_id, line.variant_id),
    qtyBefore: before,
    qtyAfter: after,
  });
}

function requireLine(world: WorldState, lineId: string): CartLine {
  const line = world.cart.find((l) => l.line_id === lineId);
  if (!line) {
    const ids = world.cart.map((l) => l.line_id);
    throw new ToolError(
      `unknown line_id "${lineId}"${ids.length ? ` (cart lines: ${ids.join(', ')})` : ' (the cart is empty)'}`,
    );
  }
  return line;
}

function checkStock(ctx: ToolContext, line: Pick<CartLine, 'product_id' | 'variant_id'>, qty: number) {
  const stock = stockFor(ctx.world, ctx.catalog, line.product_id, line.variant_id) ?? 0;
  if (stock < qty) {
    const what = line.variant_id ?? line.product_id;
    throw new ToolError(
      stock === 0 ? `${what} is out of stock` : `only ${stock} of ${what} in stock, cannot hold ${qty}`,
    );
  }
}

export const cartView = defineTool({
  name: 'cart.view',
  description: 'The current cart: lines and totals.',
  args: z.strictObject({}),
  run: (_args, ctx) => viewCart(ctx.world, ctx.catalog),
  freshResult: true,
});

export const cartAdd = defineTool({
  name: 'cart.add',
  description:
    'Add a product (optionally a specific variant) to the cart. The same product and variant merge into one line.',
  args: z.strictObject({
    product_id: z.string().min(1),
    variant_id: z.string().min(1).nullable().optional(),
    quantity: z.int().min(1).default(1),
  }),
  run(args, ctx) {
    const product = ctx.catalog.get(args.product_id);
    if (!product) throw new ToolError(`unknown product_id "${args.product_id}"`);
    const variantId = args.variant_id ?? null;
    if (variantId && !findVariant(product, variantId))
      throw new ToolError(`variant "${variantId}" does not belong to product ${product.id} (see catalog.get_variants)`);
    const existing = ctx.world.cart.find((l) => l.product_id === product.id && l.variant_id === variantId);
    const before = existing?.qty ?? 0;
    checkStock(ctx, { product_id: product.id, variant_id: variantId }, before + args.quantity);
    let line = existing;
    if (line) line.qty += args.quantity;
    else {
      line = {
        line_id: `line_${String(ctx.world.nextLineNo++).padStart(3, '0')}`,
        product_id: product.id,
        variant_id: variantId,
        qty: args.quantity,
      };
      ctx.world.cart.push(line);
    }
    recordChange(ctx, 'cart.add', line, before, line.qty);
    return viewCart(ctx.world, ctx.catalog);
  },
  freshResult: true,
});

export const cartRemove = defineTool({
  name: 'cart.remove',
  description: 'Remove a line from the cart.',
  args: z.strictObject({ line_id: z.string().min(1) }),
  run(args, ctx) {
    const line = requireLine(ctx.world, args.line_id);
    ctx.world.cart = ctx.world.cart.filter((l) => l !== line);
    recordChange(ctx, 'cart.remove', line, line.qty, 0);
    return viewCart(ctx.world, ctx.catalog);
  },
  freshResult: true,
});

export const cartSetQuantity = defineTool({
  name: 'cart.set_quantity',
  description: 'Set the quantity of a cart line (0 removes it).',
  args: z.strictObject({ line_id: z.string().min(1), quantity: z.int().min(0) }),
  run(args, ctx) {
    const line = requireLine(ctx.world, args.line_id);
    const before = line.qty;
    if (args.quantity === 0) ctx.world.cart = ctx.world.cart.filter((l) => l !== line);
    else {
      checkStock(ctx, line, args.quantity);
      line.qty = args.quantity;
    }
    recordChange(ctx, 'cart.set_quantity', line, before, args.quantity);
    return viewCart(ctx.world, ctx.catalog);
  },
  freshResult: true,
});
