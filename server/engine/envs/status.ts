// STATUS: the customer asks where an order is (SPEC §7). With probability p_ref
// they name it indirectly ("the Voltura wall charger I ordered last week"), so
// the agent must find it with order.list. FIX: order_status is a real answer
// field. r_task = 2·(0.5·r_oid + 0.5·r_stat) − 1 with r_oid, r_stat ∈ {0, 1};
// pass = both right. r_stat compares the answered status with the target
// order's real status, and counts only for the right order (reward revision 3: a guessed status
// for another order, or for "unknown", earned r_task 0 before).

import { z } from 'zod';
import { makeSlot, type Slot } from '../customer/slots';
import type { Rng } from '../random';
import { num, verdict } from '../evidence';
import type { EvidenceItem, TaskResult } from '../types';
import { brandAndNoun, categoryUniqueInHistory, productNoun, timeAgoPhrase } from '../world/order-phrases';
import {
  daysSincePlaced,
  findOrder,
  generateOrderHistory,
  makeLine,
  ORDER_STATUSES,
  orderTotal,
  type Order,
  type OrderStatus,
} from '../world/orders';
import { isDeniedCategory } from '../catalog/taxonomy';
import { pickLookAlike } from '../world/look-alike';
import { addLine, historySize, lookAlikeProduct, roomyOrders } from '../world/look-alike-orders';
import { ENGINE_VERSION, REV3_RULES } from '../version';
import type { Product } from '../catalog/types';
import type { Answer, EnvContext, EnvDefinition, EnvTask, VerifyContext } from './types';
import { summaryByStock } from './shared/summary-cache';

export interface StatusGoal {
  orderId: string;
  /** Status when the episode began (the verifier reads the live one). */
  status: OrderStatus;
  indirect: boolean;
  /** The line the customer names the order by. */
  productId: string;
  /** How the customer names the item ("Voltura wall charger" or just "wall charger"). */
  itemPhrase: string;
  placedDaysAgo: number;
  /** Another order holding a look-alike item (same brand and kind, or same kind), placed at another time: only "when" tells them apart. */
  lookAlikeOrderId: string | null;
  /** Engine v3: every look-alike order (H_orders of them when the reference is indirect). */
  lookAlikeOrderIds?: string[];
}

const DIRECT_OPENINGS = [
  "Hi, what's the status of order {order_id}{item}?",
  'Can you tell me where my order {order_id} is{item}?',
  "I'm checking on order {order_id}{item}. Has it shipped yet?",
  'Hello! Any update on my order {order_id}{item}?',
  "Where is my order {order_id}{item}? I'd like to know its status.",
];

const INDIRECT_OPENINGS = [
  "Hi, where's the {item} I ordered{when}?",
  'Can you check on the {item} I bought{when}?',
  'I ordered the {item}{when}. Any news on it?',
  'Has the {item} I ordered{when} shipped yet?',
  'Hello, could you look up my order for the {item}{when}? I want to know its status.',
  "What's happening with the {item} I ordered{when}?",
];

// ---------- generator ----------

function generate(ctx: EnvContext, rng: Rng): EnvTask<StatusGoal, null> {
  const { world, catalog } = ctx;
  const fresh = world.orders.length === 0;
  if (fresh) generateOrderHistory({ catalog, world, rng, count: historySize(ctx.axes.H_orders) });
  const order = rng.pick(world.orders);
  const line = rng.pick(order.lines);
  const product = catalog.get(line.product_id)!;
  const indirect = rng.bernoulli(ctx.knobs.pRef);
  const placedDaysAgo = daysSincePlaced(order, world.today);
  const when = timeAgoPhrase(placedDaysAgo);
  // From engine v3 (SPEC §6 rev 3) an indirect reference has H_orders look-alikes, not one by chance
  // (a JOURNEY's shared history keeps the old rule: its other goals rely on every line)
  const rev3 = fresh && (ctx.engineVersion ?? ENGINE_VERSION) >= REV3_RULES;
  const lookAlikes = !indirect
    ? []
    : rev3
      ? addLookAlikes(ctx, order, product, when, rng, ctx.axes.H_orders)
      : rng.bernoulli(lookAlikeChance(ctx.d))
        ? [addLookAlike(ctx, order, product, when, rng)].filter((x) => x !== null)
        : [];
  const lookAlike = lookAlikes[0] ?? null;
  // The bare noun only when it is unambiguous in the history (harder to match than brand + noun),
  // or when the look-alike shares the kind but not the brand (so the noun alone is ambiguous).
  const itemPhrase =
    lookAlike?.sameBrand === false ||
    (!lookAlike && indirect && categoryUniqueInHistory(world, catalog, product) && rng.bernoulli(0.5))
      ? productNoun(product)
      : brandAndNoun(product);
  const slots: Slot[] = [];
  let opening: string;
  if (indirect) {
    const whenSlot = makeSlot(
      {
        id: 'when',
        label: 'when the order was placed',
        keywords: ['when', 'date', 'day', 'week', 'ordered', 'order'],
        critical: false,
        revealText: `I ordered it ${when}`,
      },
      ctx.axes.p_missing,
      rng,
    );
    slots.push(whenSlot);
    opening = rng
      .pick(INDIRECT_OPENINGS)
      .replace('{item}', itemPhrase)
      .replace('{when}', whenSlot.omitted ? '' : ` ${when}`);
  } else {
    const itemSlot = makeSlot(
      {
        id: 'item',
        label: 'what is in the order',
        keywords: ['item', 'product', 'what', 'contain', 'inside'],
        critical: false,
        revealText: `it's the ${itemPhrase}`,
      },
      ctx.axes.p_missing,
      rng,
    );
    slots.push(itemSlot);
    opening = rng
      .pick(DIRECT_OPENINGS)
      .replace('{order_id}', order.order_id)
      .replace('{item}', itemSlot.omitted ? '' : ` (the ${itemPhrase})`);
  }
  return {
    goal: {
      orderId: order.order_id,
      status: order.status,
      indirect,
      productId: product.id,
      itemPhrase,
      placedDaysAgo,
      lookAlikeOrderId: lookAlike?.orderId ?? null,
      ...(rev3 ? { lookAlikeOrderIds: lookAlikes.map((l) => l.orderId) } : {}),
    },
    state: null,
    opening,
    slots,
  };
}

/**
 * Difficulty beyond the axes (docs/environments.md): at higher d another order, placed at a
 * different time, holds a look-alike of the named item, so the agent must use (or ask for) when
 * the customer ordered it. σ((d − 6)/1.5): rare at d ≤ 3, usual from d = 8.
 */
export const lookAlikeChance = (d: number) => 1 / (1 + Math.exp(-(d - 6) / 1.5));

function addLookAlike(ctx: EnvContext, target: Order, product: Product, when: string, rng: Rng) {
  const others = ctx.world.orders.filter(
    (o) => o.order_id !== target.order_id && timeAgoPhrase(daysSincePlaced(o, ctx.world.today)) !== when,
  );
  if (others.length === 0) return null;
  // The category's other products (all share the product's category, so none is denied: it was
  // ordered), same brand preferred. By index and brand groups (world/look-alike.ts): a category
  // at 2M has ~29k products, and building or even filtering them was most of a reset (issue 13).
  const { catalog } = ctx;
  const indices = isDeniedCategory(product.category) ? [] : catalog.indicesInCategory(product.category);
  const twinIndex = pickLookAlike(catalog, indices, product, rng);
  if (twinIndex === null) return null;
  const twin = catalog.at(twinIndex);
  // Added as a new line, never replacing one: another goal in the same world (JOURNEY's RETURN)
  // may depend on every existing line.
  const roomy = others.filter((o) => o.lines.length < 5); // orders hold 1–5 lines (SPEC §4)
  const order = rng.pick(roomy.length > 0 ? roomy : others);
  order.lines.push(makeLine(order.order_id, order.lines.length + 1, twin, 1));
  order.total = orderTotal(order.lines);
  return { orderId: order.order_id, sameBrand: twin.brand === product.brand };
}

/**
 * Engine v3: `count` look-alikes, each in a different order placed at another time than the
 * target (so "when" still tells them apart), one product like the named one per order.
 */
function addLookAlikes(ctx: EnvContext, target: Order, product: Product, when: string, rng: Rng, count: number) {
  const { world, catalog } = ctx;
  const others = world.orders.filter(
    (o) => o.order_id !== target.order_id && timeAgoPhrase(daysSincePlaced(o, world.today)) !== when,
  );
  const out: Array<{ orderId: string; sameBrand: boolean }> = [];
  for (const order of rng.sample(roomyOrders(others), Math.min(count, others.length))) {
    const twin = lookAlikeProduct(catalog, world, product, rng, true);
    if (!twin) break;
    addLine(order, twin);
    out.push({ orderId: order.order_id, sameBrand: twin.brand === product.brand });
  }
  return out;
}

// ---------- verifier ----------

export const statusAnswerSchema = z.strictObject({
  selected_order_id: z.string().min(1).describe('the order the customer asked about'),
  order_status: z.enum(ORDER_STATUSES).describe('its current status, as order.get_status / order.list show it'),
});

function verify(goal: StatusGoal, answer: Answer | null, ctx: VerifyContext): TaskResult {
  const actual = findOrder(ctx.world, goal.orderId)?.status ?? goal.status;
  const selected = typeof answer?.selected_order_id === 'string' ? answer.selected_order_id : null;
  const stated = typeof answer?.order_status === 'string' ? answer.order_status : null;
  const rOid = selected === goal.orderId ? 1 : 0;
  // reward revision 3: the status of another order (or of none) is not the status asked about
  const rStat = rOid === 1 && stated === actual ? 1 : 0;
  const rTask = 2 * (0.5 * rOid + 0.5 * rStat) - 1;
  const pass = rOid === 1 && rStat === 1;
  const reasons = [rOid === 1 ? '' : 'r_oid = 0 (another order)', rStat === 1 ? '' : 'r_stat = 0 (another status)'];
  const seenAt = ctx.seen.get(goal.productId);
  const evidence: EvidenceItem[] = [
    {
      text: `selected order ${selected ?? '(none)'}; the customer meant ${goal.orderId}${goal.indirect ? ` (named as "the ${goal.itemPhrase}")` : ''} → r_oid = ${rOid}`,
      turns: [ctx.turn],
      ok: rOid === 1,
      role: 'part',
    },
    {
      text: `answered status ${stated ?? '(none)'}; the order is ${actual}${rOid === 1 ? '' : ' (another order was selected: its status does not count)'} → r_stat = ${rStat}`,
      turns: [ctx.turn],
      ok: rStat === 1,
      role: 'part',
    },
    {
      // A detail, never part of the pass rule: ✗ only as a likely cause of a wrong answer.
      text:
        seenAt !== undefined
          ? `the order's item was first shown at turn ${seenAt}`
          : pass
            ? `the order's items were never looked up (the answer was right without them)`
            : `the order's items were never looked up`,
      turns: seenAt === undefined ? [] : [seenAt],
      ok: seenAt !== undefined || pass,
    },
    {
      text: `r_task = 2·(0.5·r_oid + 0.5·r_stat) − 1 = 2·(0.5·${rOid} + 0.5·${rStat}) − 1 = ${num(rTask)}${verdict(pass, reasons.filter(Boolean))}`,
      turns: [],
      ok: pass,
      role: 'verdict',
    },
  ];
  return { rTask, isCorrect: pass, metrics: { rOid, rStat }, evidence };
}

// ---------- customer reactions ----------

// None beyond the default policy: the customer asks because they do not know which order
// holds what or its status, so no reply may depend on which order the agent looked up (a
// correction or a confirmation after a bare lookup would let a goal-blind agent enumerate
// orders until told it is right). SPEC §9 allows corrections only after cart or return actions.

export const statusEnv: EnvDefinition<StatusGoal, null> = {
  id: 'STATUS',
  name: 'Order status',
  description: 'Find the order the customer means and tell them its status (selected_order_id, order_status).',
  passRule: 'both the order (r_oid = 1) and its status (r_stat = 1) are right',
  tools: ['order.list', 'order.get_status', 'datetime.now'],
  answerSchema: statusAnswerSchema,
  generate,
  nudges: ['So where is my order?', 'Were you able to find it?', 'Any news on that order?'],
  verify: (goal, _state, answer, ctx) => verify(goal, answer, ctx),
  recommendedIds: () => [],
  summarize: summaryByStock<StatusGoal>((goal) => [
    `order ${goal.orderId}, status ${goal.status} at the start, placed ${goal.placedDaysAgo} day(s) ago`,
    goal.indirect
      ? `named indirectly as "the ${goal.itemPhrase}" (${goal.productId})`
      : `named by its order id (contains the ${goal.itemPhrase})`,
    ...(goal.lookAlikeOrderIds
      ? goal.lookAlikeOrderIds.length > 0
        ? [`look-alike items in orders ${goal.lookAlikeOrderIds.join(', ')}, placed at other times`]
        : []
      : goal.lookAlikeOrderId
        ? [`look-alike item in order ${goal.lookAlikeOrderId}, placed at another time: only "when" tells them apart`]
        : []),
  ]),
};
