// RETURN: the customer wants to return a delivered item, named by product, not
// by order id (SPEC §7), and half the time wants a replacement.
//   r_sel = ±1: selected_order_id and selected_line_id are the target's.
//   r_ret (FIX): eligible target → +1 only if a return or exchange was initiated
//          for the target line and for no other line, and the answer does not
//          claim it is ineligible; else −1. Ineligible target (past the window, or
//          groceries) → +1 only if nothing was initiated and return_ineligible: true.
//          Revision 2: a return.initiate or return.exchange call naming the target
//          line counts as initiating it even when the tool refuses it.
//   r_rep = the shared PD verifier (recommend.ts) of the replacement ids against
//          the replacement constraints when a replacement is wanted, else r_sel (reward
//          revision 3: 1 for the right line, −1 for another; it was 1 whatever was selected).
//   r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep; pass = r_sel = 1, r_ret = 1, r_rep passes.
// With p_edge the delivery lies at the window boundary (window −1, 0, +1 days);
// the window counts from delivery and day = window is the last eligible day
// (world/returns.ts). Beside this file: shared/return-cases.ts (the target cases),
// shared/return-score.ts (r_ret) and shared/return-customer.ts (the customer).

import { z } from 'zod';
import { makeSlot, type Slot } from '../customer/slots';
import type { Rng } from '../random';
import { factor, nested, num, verdict } from '../evidence';
import type { EvidenceItem, TaskResult } from '../types';
import { brandAndNoun, timeAgoPhrase } from '../world/order-phrases';
import { byNewestOrder, daysSincePlaced, generateOrderHistory, setOrderStatus, type Order } from '../world/orders';
import { addLine, historySize, lookAlikeProduct } from '../world/look-alike-orders';
import type { Product } from '../catalog/types';
import { ENGINE_VERSION, REV3_RULES } from '../version';
import { checkEligibility, returnWindowDays, type ReturnReason } from '../world/returns';
import { categoryNoun } from './cart';
import { constraintSlots, statedPhrases, summarizeSpec } from './pd';
import {
  buildRecommendationSpec,
  recommendationOutOfStock,
  scoreRecommendations,
  type RecommendationSpec,
} from './shared/recommend';
import { newCustomerNotes, type CustomerNotes } from './shared/recommend-customer';
import { rewardsProduct } from './shared/recommend-stock';
import { joinList, withArticle } from './shared/phrasing';
import { confirmReturn, respondToReturn } from './shared/return-customer';
import {
  deliveredDaysAgo,
  pickCase,
  replacementReference,
  shapeTargetProduct,
  type ReturnCase,
} from './shared/return-cases';
import { replacementIds, replacementIdsOf, scoreReturnAction } from './shared/return-score';
import type { Answer, EnvContext, EnvDefinition, EnvTask, StockDraw, VerifyContext } from './types';
import { summaryByStock } from './shared/summary-cache';

export type { ReturnCase };

export interface ReturnGoal {
  orderId: string;
  lineId: string;
  productId: string;
  title: string;
  /** How the customer names the item ("Voltura wall charger"). */
  itemPhrase: string;
  case: ReturnCase;
  eligible: boolean;
  windowDays: number;
  daysSinceDelivery: number;
  deliveredDate: string;
  eligibilityReason: string;
  reasonCode: ReturnReason;
  /** The replacement request, scored by the PD verifier; null when none is wanted. */
  replacement: RecommendationSpec | null;
  replacementNoun: string | null;
}

export type ReturnTask = EnvTask<ReturnGoal, CustomerNotes>;

const REPLACEMENT_CHANCE = 0.5;

const OPENINGS = [
  "Hi, I'd like to return the {item} I bought{when}.{reason}",
  'I need to send back the {item} I ordered{when}.{reason}',
  'Hello! Can you help me return the {item} I got{when}?{reason}',
  'I want to return something: the {item} I bought{when}.{reason}',
  "The {item} I ordered{when} isn't working out for me.{reason} Can I return it?",
];
const REPLACEMENT_ASK = " I'd also like a replacement: {a_noun} {constraints}. What would you suggest?";

const REASON_TEXT: Record<ReturnReason, string> = {
  defective: 'It stopped working after a few days',
  wrong_item: "It isn't the item I ordered",
  not_as_described: "It doesn't match the description",
  changed_mind: 'I changed my mind about it',
  too_large: "It's too big for me",
  too_small: "It's too small for me",
  arrived_late: 'It arrived too late to be useful',
  better_price_found: 'I found it cheaper elsewhere',
};
const SIZE_REASONS: ReturnReason[] = ['too_large', 'too_small', 'changed_mind', 'not_as_described', 'defective'];
const OTHER_REASONS: ReturnReason[] = [
  'defective',
  'wrong_item',
  'not_as_described',
  'changed_mind',
  'arrived_late',
  'better_price_found',
];

// ---------- generator ----------

function generate(ctx: EnvContext, rng: Rng): ReturnTask {
  const { world, catalog } = ctx;
  // In a JOURNEY whose world already has a history: one more order. Alone, before engine v3: the
  // target is one of the H_orders orders (it was the newest delivered one 46–91% of the time).
  // From v3 (SPEC §6 rev 3): 5·H_orders + 5 orders as STATUS's, H_orders + 1 candidates drawn
  // from them, the target uniform among the candidates and the others look-alikes, delivered
  // like a target would be and holding a product of its category or brand.
  const fresh = world.orders.length === 0;
  const rev3 = fresh && (ctx.engineVersion ?? ENGINE_VERSION) >= REV3_RULES;
  const H = ctx.axes.H_orders;
  const count = !fresh ? 1 : rev3 ? historySize(H) : H;
  const created = generateOrderHistory({ catalog, world, rng, count });
  const candidates = rev3 ? rng.sample(world.orders, Math.min(world.orders.length, H + 1)) : [];
  const order = rev3 ? rng.pick(candidates) : fresh ? rng.pick(world.orders) : created[0];
  const lineIndex = rng.int(0, order.lines.length - 1);
  const kase = shapeTargetProduct(ctx, rng, order, lineIndex, pickCase(ctx, rng));
  const line = order.lines[lineIndex];
  const window = returnWindowDays(line.category);
  setOrderStatus(order, 'DELIVERED', world.today, rng, deliveredDaysAgo(kase, window, rng));
  if (rev3)
    addReturnLookAlikes(
      ctx,
      rng,
      order,
      candidates.filter((o) => o !== order),
      catalog.get(line.product_id)!,
      window,
    );
  world.orders.sort(byNewestOrder);
  const eligibility = checkEligibility(world, order, line, ctx.engineVersion);
  if (eligibility.eligible !== (kase === 'eligible' || kase === 'edge_minus_1' || kase === 'edge_0'))
    throw new Error(`RETURN: case ${kase} but eligibility says ${eligibility.reason}`);

  const product = catalog.get(line.product_id)!;
  const itemPhrase = brandAndNoun(product);
  const reasonCode = rng.pick(product.department === 'clothing' ? SIZE_REASONS : OTHER_REASONS);
  const slots: Slot[] = [
    makeSlot(
      {
        id: 'when',
        label: 'when it was bought',
        keywords: ['when', 'date', 'bought', 'ordered', 'purchase', 'purchased', 'week', 'day'],
        critical: false,
        revealText: `I bought it ${timeAgoPhrase(daysSincePlaced(order, world.today))}`,
      },
      ctx.axes.p_missing,
      rng,
    ),
    makeSlot(
      {
        id: 'reason',
        label: `reason: ${reasonCode}`,
        keywords: ['why', 'reason', 'wrong', 'problem', 'issue'],
        critical: false,
        revealText: REASON_TEXT[reasonCode].replace(/^It/, 'it'),
      },
      ctx.axes.p_missing,
      rng,
    ),
  ];
  const [whenSlot, reasonSlot] = slots;
  let opening = rng
    .pick(OPENINGS)
    .replace('{item}', itemPhrase)
    .replace('{when}', whenSlot.omitted ? '' : ` ${timeAgoPhrase(daysSincePlaced(order, world.today))}`)
    .replace('{reason}', reasonSlot.omitted ? '' : ` ${REASON_TEXT[reasonCode]}.`);

  let replacement: RecommendationSpec | null = null;
  let replacementNoun: string | null = null;
  const reference = rng.bernoulli(REPLACEMENT_CHANCE)
    ? replacementReference(ctx, rng, product.category, product.id, line.qty)
    : null;
  if (reference) {
    replacement = buildRecommendationSpec(ctx, rng.fork('replacement'), {
      reference,
      mode: 'discovery',
      n: ctx.axes.m,
      k: ctx.axes.k_rec,
      required: ['price'],
      excludeIds: [product.id],
    });
    replacementNoun = categoryNoun(product.category);
    const constraintSlotList = constraintSlots(
      replacement.constraints,
      (c) => c.attr === 'price',
      ctx.axes.p_missing,
      rng,
    );
    slots.push(...constraintSlotList);
    opening += REPLACEMENT_ASK.replace('{a_noun}', withArticle(replacementNoun)).replace(
      '{constraints}',
      joinList(statedPhrases(replacement.constraints, constraintSlotList)),
    );
  }
  return {
    goal: {
      orderId: order.order_id,
      lineId: line.line_id,
      productId: product.id,
      title: product.title,
      itemPhrase,
      case: kase,
      eligible: eligibility.eligible,
      windowDays: window,
      daysSinceDelivery: eligibility.days_since_delivery!,
      deliveredDate: eligibility.delivered_date!,
      eligibilityReason: eligibility.reason,
      reasonCode,
      replacement,
      replacementNoun,
    },
    state: newCustomerNotes(),
    opening,
    slots,
  };
}

/**
 * Each look-alike order: delivered as a target of a drawn case would be, with a line like the
 * target's product — of the same brand and kind when the order was placed at another time than
 * the target (then only "when" tells them apart), else of its category or brand only.
 */
function addReturnLookAlikes(
  ctx: EnvContext,
  rng: Rng,
  target: Order,
  orders: readonly Order[],
  product: Product,
  window: number,
) {
  const { world, catalog } = ctx;
  const when = timeAgoPhrase(daysSincePlaced(target, world.today));
  for (const o of orders) {
    setOrderStatus(o, 'DELIVERED', world.today, rng, deliveredDaysAgo(pickCase(ctx, rng), Math.max(2, window), rng));
    const otherTime = timeAgoPhrase(daysSincePlaced(o, world.today)) !== when;
    const twin = lookAlikeProduct(catalog, world, product, rng, otherTime);
    if (twin) addLine(o, twin);
  }
}

// ---------- verifier ----------

export const returnAnswerSchema = z.strictObject({
  selected_order_id: z.string().min(1).describe('the order holding the item the customer wants to return'),
  selected_line_id: z.string().min(1).describe('the order line of that item'),
  replacement_product_ids: z
    .array(z.string().min(1))
    .max(50)
    .optional()
    .describe('replacement suggestions, best first, when the customer asked for one'),
  return_ineligible: z
    .boolean()
    .optional()
    .describe('true when the item cannot be returned (and so no return was started)'),
});

/** p_oos at first sight on the replacement candidates, as in PD. */
function outOfStock(task: ReturnTask, firstSeen: readonly string[], ctx: VerifyContext, draw: StockDraw): string[] {
  return task.goal.replacement ? recommendationOutOfStock(task.goal.replacement, firstSeen, ctx, draw) : [];
}

function verify(goal: ReturnGoal, answer: Answer | null, ctx: VerifyContext): TaskResult {
  const evidence: EvidenceItem[] = [];
  const selOrder = answer?.selected_order_id ?? null;
  const selLine = answer?.selected_line_id ?? null;
  const rSel = selOrder === goal.orderId && selLine === goal.lineId ? 1 : -1;
  evidence.push({
    text: `selected ${selOrder ?? '(none)'} / ${selLine ?? '(none)'}; the item is ${goal.orderId} / ${goal.lineId} → r_sel = ${num(rSel)}`,
    turns: [ctx.turn],
    ok: rSel === 1,
    role: 'part',
  });

  const rRet = scoreReturnAction(goal, answer, ctx, evidence);

  let rRep: number;
  let repPass = true;
  if (goal.replacement) {
    // An exchange alone names one product: score it as a list of one (k = 1), so the best
    // in-stock replacement passes; a named list is scored at the spec's k.
    const exchangeOnly = replacementIdsOf(answer).length === 0;
    const spec = goal.replacement;
    const rep = scoreRecommendations(
      exchangeOnly ? Object.assign({}, spec, { k: 1 }) : spec,
      replacementIds(goal, answer, ctx),
      ctx,
    );
    rRep = rep.rTask;
    repPass = rep.isCorrect;
    evidence.push(...nested(rep.evidence, 'replacement: '));
    // The replacement must pass on its own (SPEC §7): its own verdict, not its weight in r_task.
    evidence.push({
      text: `the replacement ${repPass ? 'passes' : 'does not pass'} on its own (its r_task ${num(rRep, 3)} ${repPass ? '≥' : '<'} ${spec.passThreshold}) → r_rep = ${num(rRep, 3)}`,
      turns: [],
      ok: repPass,
      role: 'part',
    });
  } else {
    // reward revision 3: no free share for the wrong line ("I don't know" scored r_task −0.8, above −0.75 in reward)
    rRep = rSel;
    evidence.push({
      text: `no replacement wanted → r_rep = r_sel = ${num(rRep)}`,
      turns: [],
      ok: rRep === 1,
      role: 'part',
    });
  }

  const rTask = 0.45 * rSel + 0.45 * rRet + 0.1 * rRep;
  const pass = rSel === 1 && rRet === 1 && repPass;
  const reasons = [
    rSel === 1 ? '' : `r_sel = ${num(rSel)}`,
    rRet === 1 ? '' : `r_ret = ${num(rRet)}`,
    repPass ? '' : 'the replacement does not pass on its own',
  ].filter(Boolean);
  evidence.push({
    text: `r_task = 0.45·r_sel + 0.45·r_ret + 0.10·r_rep = 0.45·${factor(rSel)} + 0.45·${factor(rRet)} + 0.10·${factor(rRep, 3)} = ${num(rTask, 3)}${verdict(pass, reasons)}`,
    turns: [],
    ok: pass,
    role: 'verdict',
  });
  return { rTask, isCorrect: pass, metrics: { rSel, rRet, rRep }, evidence };
}

export const returnEnv: EnvDefinition<ReturnGoal, CustomerNotes> = {
  id: 'RETURN',
  name: 'Return and replacement',
  description:
    'Find the order line of the item the customer describes, start its return or exchange if it is eligible (else say why not), and suggest a replacement when asked.',
  passRule:
    'all three parts pass: the right order line (r_sel = 1), the return handled as the policy allows (r_ret = 1), and the replacement, when one is wanted, passes on its own (its r_task ≥ 0.95); r_task ≥ 0.95 alone is not enough',
  tools: [
    'order.list',
    'order.get_status',
    'return.check_eligibility',
    'return.initiate',
    'return.exchange',
    'catalog.search',
    'catalog.rerank',
    'catalog.get_product',
    'catalog.get_variants',
    'policy.search',
    'datetime.now',
  ],
  answerSchema: returnAnswerSchema,
  generate,
  confirm: confirmReturn,
  respond: respondToReturn,
  outOfStock,
  otherStock: (task, id) => (task.goal.replacement && rewardsProduct(task.goal.replacement, id) ? null : 'product'),
  nudges: ['What can you do for me?', 'How does my return look?', 'Any luck with my return?'],
  verify: (goal, _state, answer, ctx) => verify(goal, answer, ctx),
  recommendedIds: (answer, _ctx, goal) => replacementIdsOf(answer).slice(0, goal.replacement?.k ?? 0), // the scored ids (see PD)
  summarize: summaryByStock<ReturnGoal>((goal, ctx) => [
    `return ${goal.title} (${goal.productId}) — order ${goal.orderId}, line ${goal.lineId}; reason ${goal.reasonCode}`,
    `case ${goal.case}: ${goal.windowDays}-day window, delivered ${goal.daysSinceDelivery} day(s) ago on ${goal.deliveredDate} → ${goal.eligible ? 'eligible' : 'NOT eligible'} (${goal.eligibilityReason})`,
    ...(goal.replacement
      ? [`replacement wanted: a ${goal.replacementNoun}`, ...summarizeSpec(goal.replacement, ctx)]
      : ['no replacement wanted']),
  ]),
};
