// CART: put exact products, variants and quantities in the cart (SPEC §7).
// Verifier: unit-level F1 over product::variant keys; r_task = 2·F1 − 1.

import { z } from 'zod';
import { categoryNoun, isDeniedCategory } from '../catalog/taxonomy';
import type { Product } from '../catalog/types';
import { makeSlot, type Slot } from '../customer/slots';
import type { Rng } from '../random';
import { num, verdict } from '../evidence';
import type { EvidenceItem, TaskResult } from '../types';
import { fieldReader } from '../world/catalog-columns';
import { cartKey, type CartLine } from '../world/state';
import { variantsOf, type Variant } from '../world/variants';
import { currentVariants } from '../world/stock';
import type { CustomerReply, EnvContext, EnvDefinition, EnvTask, StockDraw, TurnInfo, VerifyContext } from './types';
import { describeItem, humanAttr, subjectWords } from './shared/cart-naming';
import { joinList } from './shared/phrasing';

export interface CartItemGoal {
  productId: string;
  title: string;
  /** null: any variant (or none) of the product counts. */
  variantId: string | null;
  variantAttr: string | null;
  variantValue: string | null;
  qty: number;
  /** The customer names it only as something seen earlier (needs user.get_visit_history). */
  viaHistory: boolean;
}

export interface CartGoal {
  items: CartItemGoal[];
}

export interface Alternative {
  variantId: string;
  value: string;
}

/** What changes during a CART episode: alternatives to variants that went out of stock. */
export interface CartState {
  /** By product id: the variant the customer will accept once told the required one is out of stock. */
  pending: Record<string, Alternative>;
  /** By product id: alternatives the customer accepted (the cart is now judged against them). */
  accepted: Record<string, Alternative>;
}

type CartTask = EnvTask<CartGoal, CartState>;

/** The goal as it stands: the original items with the alternatives the customer accepted. */
export function currentCartGoal(goal: CartGoal, state: CartState): CartGoal {
  return {
    items: goal.items.map((i) => {
      const alt = state.accepted[i.productId];
      return alt ? Object.assign({}, i, { variantId: alt.variantId, variantValue: alt.value }) : i;
    }),
  };
}

export { categoryNoun };

const OPENINGS = [
  'Hi! Could you put {items} in my cart?',
  "I'd like to order {items}. Can you set that up?",
  'Please add {items} to my cart, thanks.',
  'Hey, I need {items}. Can you build my cart?',
  'Can you help me buy {items}?',
  "Hello, I'm shopping for {items}. Please add them to the cart.",
];

// ---------- generator ----------

function pickTargets(ctx: EnvContext, rng: Rng): CartItemGoal[] {
  const { catalog, knobs } = ctx;
  const items: CartItemGoal[] = [];
  const usedCategories = new Set<string>();
  for (let attempt = 0; items.length < knobs.cartItems && attempt < 20_000; attempt++) {
    const product = catalog.at(rng.int(0, catalog.size - 1));
    const strictCategories = attempt < 10_000; // relax only if the catalog is tiny
    if (product.stockQty < 5 || isDeniedCategory(product.category)) continue;
    if (items.some((i) => i.productId === product.id)) continue;
    if (strictCategories && usedCategories.has(product.category)) continue;
    const qty = rng.bernoulli(knobs.pQty) ? rng.int(2, 4) : 1;
    const wantVariant = rng.bernoulli(knobs.pVar);
    const variants = variantsOf(product).filter((v) => v.stock_qty >= qty + 2);
    if (wantVariant && variants.length === 0) continue;
    const variant: Variant | null = wantVariant ? rng.pick(variants) : null;
    const attr = variant ? Object.keys(variant.attrs)[0] : null;
    items.push({
      productId: product.id,
      title: product.title,
      variantId: variant?.variant_id ?? null,
      variantAttr: attr,
      variantValue: variant && attr ? String(variant.attrs[attr]) : null,
      qty,
      viaHistory: rng.bernoulli(Math.min(0.5, 0.05 * ctx.d)),
    });
    usedCategories.add(product.category);
  }
  if (items.length === 0) throw new Error(`CART: catalog ${catalog.id} has no product fit to be a target`);
  return items;
}

function historyWithDistractors(ctx: EnvContext, items: CartItemGoal[], rng: Rng): string[] {
  const ids = new Set(items.map((i) => i.productId));
  const fields = fieldReader(ctx.catalog);
  for (const item of items) {
    const target = ctx.catalog.get(item.productId)!;
    const pool = ctx.catalog.indicesInCategory(target.category);
    // the first two of 12 sampled that are new, of another brand and not denied; by column (at
    // 2M products most sampled products missed the catalog's product cache: issue 13)
    let added = 0;
    for (const ix of rng.sample(pool, 12)) {
      const id = fields.id(ix);
      if (ids.has(id) || fields.brand(ix) === target.brand || isDeniedCategory(fields.category(ix))) continue;
      ids.add(id);
      if (++added === 2) break;
    }
  }
  return rng.shuffle([...ids]);
}

function generate(ctx: EnvContext, rng: Rng): CartTask {
  const items = pickTargets(ctx, rng);
  // Inside a JOURNEY another sub-task's p_oos could empty a product this cart needs (PD d = 1
  // seed 1000138 took an any-variant item): CART's own p_oos works on variants only.
  for (const item of items) ctx.world.protectedStock.add(item.productId);
  ctx.world.visitHistory = historyWithDistractors(ctx, items, rng);
  const slots: Slot[] = [];
  for (const item of items) {
    const short = `${ctx.catalog.get(item.productId)!.brand} ${categoryNoun(ctx.catalog.get(item.productId)!.category)}`;
    if (item.variantId) {
      slots.push(
        makeSlot(
          {
            id: `variant:${item.productId}`,
            label: `${humanAttr(item.variantAttr!)} of the ${short}`,
            keywords: [
              ...humanAttr(item.variantAttr!).split(' '),
              'variant',
              'version',
              'option',
              'which one',
              'colour',
              'type',
            ],
            topic: 'variant',
            subject: subjectWords(ctx.catalog.get(item.productId)!),
            critical: false,
            revealText: `the ${short} should be the ${item.variantValue} one`,
          },
          ctx.axes.p_missing,
          rng,
        ),
      );
    }
    if (item.qty > 1) {
      slots.push(
        makeSlot(
          {
            id: `qty:${item.productId}`,
            label: `quantity of the ${short}`,
            keywords: ['how many', 'quantity', 'qty', 'number', 'count', 'units'],
            topic: 'qty',
            subject: subjectWords(ctx.catalog.get(item.productId)!),
            critical: false,
            revealText: `I need ${item.qty} of the ${short}`,
          },
          ctx.axes.p_missing,
          rng,
        ),
      );
    }
  }
  const opening = rng
    .pick(OPENINGS)
    .replace('{items}', joinList(items.map((i) => describeItem(i, slots, ctx.catalog))));
  return { goal: { items }, state: { pending: {}, accepted: {} }, opening, slots };
}

// ---------- verifier ----------

/** The key a cart line counts under: the variant only matters when the goal names one. */
function lineKey(goal: CartGoal, line: Pick<CartLine, 'product_id' | 'variant_id'>): string {
  const item = goal.items.find((i) => i.productId === line.product_id);
  return item && item.variantId === null ? line.product_id : cartKey(line.product_id, line.variant_id);
}

export function cartUnits(goal: CartGoal, cart: readonly CartLine[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const line of cart) units.set(lineKey(goal, line), (units.get(lineKey(goal, line)) ?? 0) + line.qty);
  return units;
}

export function requiredUnits(goal: CartGoal): Map<string, number> {
  return new Map(goal.items.map((i) => [cartKey(i.productId, i.variantId), i.qty]));
}

export function cartF1(goal: CartGoal, cart: readonly CartLine[]) {
  const required = requiredUnits(goal);
  const inCart = cartUnits(goal, cart);
  let matched = 0;
  for (const [key, qty] of required) matched += Math.min(qty, inCart.get(key) ?? 0);
  const cartTotal = [...inCart.values()].reduce((a, b) => a + b, 0);
  const requiredTotal = [...required.values()].reduce((a, b) => a + b, 0);
  const precision = cartTotal === 0 ? 0 : matched / cartTotal;
  const recall = requiredTotal === 0 ? 0 : matched / requiredTotal;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { matched, cartTotal, requiredTotal, precision, recall, f1 };
}

function verify(original: CartGoal, state: CartState, ctx: EnvContext): TaskResult {
  const goal = currentCartGoal(original, state);
  const cart = ctx.world.cart;
  const f = cartF1(goal, cart);
  const inCart = cartUnits(goal, cart);
  const turnsFor = (productId: string) => [
    ...new Set(ctx.world.cartChanges.filter((c) => c.key.split('::')[0] === productId).map((c) => c.turn)),
  ];
  const evidence: EvidenceItem[] = [];
  for (const item of goal.items) {
    const key = cartKey(item.productId, item.variantId);
    const have = inCart.get(key) ?? 0;
    evidence.push({
      text: `${key}: required ${item.qty}, in cart ${have}${have === item.qty ? ' (matched)' : ''}`,
      turns: turnsFor(item.productId),
      ok: have === item.qty,
    });
  }
  const required = requiredUnits(goal);
  for (const [key, qty] of inCart) {
    if (required.has(key)) continue;
    evidence.push({
      text: `${key}: ×${qty} in cart but not requested`,
      turns: turnsFor(key.split('::')[0]),
      ok: false,
    });
  }
  for (const [productId, alt] of Object.entries(state.accepted))
    evidence.push({
      text: `${productId}: the customer accepted variant ${alt.variantId} (${alt.value}) after the required one went out of stock`,
      turns: [],
      ok: true,
    });
  const rTask = 2 * f.f1 - 1;
  const pass = f.f1 === 1;
  evidence.push({
    text: `matched ${f.matched} units; precision ${f.matched}/${f.cartTotal}, recall ${f.matched}/${f.requiredTotal}, F1 = ${f.f1.toFixed(3)}; r_task = 2·F1 − 1 = ${num(rTask, 3)}${verdict(pass, ['F1 < 1'])}`,
    turns: [],
    ok: pass,
    role: 'verdict',
  });
  return {
    rTask,
    isCorrect: pass,
    metrics: { f1: f.f1, precision: f.precision, recall: f.recall },
    evidence,
  };
}

// ---------- customer reactions ----------

function firstProblem(task: CartTask, ctx: EnvContext): string | null {
  const goal = currentCartGoal(task.goal, task.state);
  const titleOf = (id: string) => ctx.catalog.get(id)?.title ?? id;
  for (const line of ctx.world.cart) {
    const item = goal.items.find((i) => i.productId === line.product_id);
    if (!item) return `I didn't ask for the ${titleOf(line.product_id)}.`;
    if (item.variantId && line.variant_id !== item.variantId) {
      reveal(task, `variant:${item.productId}`);
      const product = ctx.catalog.get(line.product_id)!;
      const wrong = line.variant_id ? variantValue(product, line.variant_id) : 'default';
      return `That ${categoryNoun(product.category)} is the ${wrong} one, I need ${item.variantValue}.`;
    }
  }
  const inCart = cartUnits(goal, ctx.world.cart);
  for (const item of goal.items) {
    const have = inCart.get(cartKey(item.productId, item.variantId)) ?? 0;
    if (have > 0 && have !== item.qty) {
      reveal(task, `qty:${item.productId}`);
      return `I need ${item.qty} of the ${titleOf(item.productId)}, not ${have}.`;
    }
  }
  return null;
}

function variantValue(product: Product, variantId: string): string {
  const v = variantsOf(product).find((x) => x.variant_id === variantId);
  return v ? String(Object.values(v.attrs)[0]) : variantId;
}

function reveal(task: CartTask, slotId: string) {
  const slot = task.slots.find((s) => s.id === slotId);
  if (slot) slot.revealed = true;
}

const OUT_OF_STOCK_WORDS =
  /out of stock|sold out|unavailable|not available|no longer available|isn't available|none left|no stock/i;

/** p_oos at first sight of a target product: its required variant (not yet in the cart) goes out of stock when another variant can stand in. */
function outOfStock(task: CartTask, firstSeen: readonly string[], ctx: VerifyContext, draw: StockDraw): string[] {
  // Most steps show no target product for the first time: nothing to build then (an accepted
  // alternative changes an item's variant, never its product).
  if (!task.goal.items.some((i) => firstSeen.includes(i.productId))) return [];
  const goal = currentCartGoal(task.goal, task.state);
  const inCart = cartUnits(goal, ctx.world.cart);
  const gone: string[] = [];
  for (const item of goal.items) {
    if (!item.variantId || !firstSeen.includes(item.productId) || inCart.has(cartKey(item.productId, item.variantId)))
      continue;
    if (ctx.world.protectedStock.has(item.variantId)) continue;
    const rng = draw(item.productId);
    if (!rng.bernoulli(ctx.axes.p_oos)) continue;
    const product = ctx.catalog.get(item.productId)!;
    const options = currentVariants(ctx.world, product).filter(
      (v) => v.variant_id !== item.variantId && v.stock_qty >= item.qty + 2,
    );
    if (options.length === 0) continue;
    const alt = rng.pick(options);
    task.state.pending[item.productId] = { variantId: alt.variant_id, value: String(Object.values(alt.attrs)[0]) };
    ctx.world.protectedStock.add(alt.variant_id);
    gone.push(item.variantId);
  }
  return gone;
}

/** Once the agent says an item is out of stock, the customer names the alternative; the state records it. */
function acceptAlternatives(task: CartTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  if (!OUT_OF_STOCK_WORDS.test(info.agentMessage)) return null;
  const pending = Object.entries(task.state.pending);
  if (pending.length === 0) return null;
  const parts: string[] = [];
  const changes: string[] = [];
  for (const [productId, alt] of pending) {
    const item = task.goal.items.find((i) => i.productId === productId)!;
    const before = currentCartGoal(task.goal, task.state).items.find((i) => i.productId === productId)!;
    const short = `${ctx.catalog.get(productId)!.brand} ${categoryNoun(ctx.catalog.get(productId)!.category)}`;
    parts.push(`the ${alt.value} ${short} is fine instead`);
    changes.push(`${before.variantId} → ${alt.variantId}`);
    task.state.accepted[item.productId] = alt;
    delete task.state.pending[productId];
    reveal(task, `variant:${item.productId}`);
  }
  return {
    text: `Oh, that's a shame. Then ${parts.join(', and ')}.`,
    act: 'clarify',
    goalChange: `customer accepted an alternative after an out-of-stock notice: ${changes.join(', ')}`,
  };
}

function confirm(task: CartTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  if (!info.cartChanged || cartF1(currentCartGoal(task.goal, task.state), ctx.world.cart).f1 !== 1) return null;
  return { text: "That's everything I need, thank you!", act: 'confirm' };
}

function respond(task: CartTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const alternative = acceptAlternatives(task, info, ctx);
  if (alternative) return alternative;
  if (!info.cartChanged) return null;
  const problem = firstProblem(task, ctx);
  if (problem) return { text: problem, act: 'correct' };
  const goal = currentCartGoal(task.goal, task.state);
  const missing = goal.items.filter((i) => !cartUnits(goal, ctx.world.cart).has(cartKey(i.productId, i.variantId)));
  return {
    text: `That looks right so far. I still need ${missing.length} more item${missing.length === 1 ? '' : 's'}.`,
    act: 'continue',
  };
}

export const cartEnv: EnvDefinition<CartGoal, CartState> = {
  id: 'CART',
  name: 'Cart building',
  description: 'Put the exact products, variants and quantities the customer wants into the cart, then finish.',
  passRule: 'the cart matches the wanted products, variants and quantities exactly (F1 = 1)',
  tools: [
    'catalog.search',
    'catalog.get_product',
    'catalog.get_variants',
    'cart.view',
    'cart.add',
    'cart.remove',
    'cart.set_quantity',
    'user.get_visit_history',
    'datetime.now',
  ],
  answerSchema: z.strictObject({}),
  generate,
  confirm,
  respond,
  outOfStock,
  // a stock-out of a seen non-target product strikes one of its variants, as a target's does
  otherStock: (task, id) => (task.goal.items.some((i) => i.productId === id) ? null : 'variant'),
  nudges: ['How is my cart coming along?', 'Can you put that in my cart for me?', 'Any luck finding what I asked for?'],
  verify: (goal, state, _answer, ctx) => verify(goal, state, ctx),
  recommendedIds: (_answer, ctx) => [...new Set(ctx.world.cart.map((l) => l.product_id))],
  summarize: (goal, _ctx, state) =>
    currentCartGoal(goal, state).items.map(
      (i) =>
        `${i.qty} × ${i.title} (${i.productId})${i.variantId ? ` — variant ${i.variantId} (${humanAttr(i.variantAttr!)} ${i.variantValue})` : ' — any variant'}${i.viaHistory ? ' — named via visit history' : ''}`,
    ),
};
