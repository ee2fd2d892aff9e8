// PD, product discovery (SPEC §7): the customer wants products of one kind that
// meet m constraints (price is always one). Answer: recommended_product_ids,
// the first k_rec of which are scored by the shared recommendation verifier
// (recommend.ts): r_task = 0.55·r_rank + 0.35·r_cons + 0.10·r_oos, pass ≥ 0.95.

import { z } from 'zod';
import { isDeniedCategory } from '../catalog/taxonomy';
import type { Product } from '../catalog/types';
import { makeSlot, type Slot } from '../customer/slots';
import type { Rng } from '../random';
import { categoryNoun } from './cart';
import { rewardsProduct } from './shared/recommend-stock';
import { constraintKeywords, describeConstraint, type Constraint } from './shared/persona';
import {
  buildRecommendationSpec,
  idealList,
  recommendationOutOfStock,
  scoreRecommendations,
  type RecommendationSpec,
} from './shared/recommend';
import {
  confirmOnce,
  newCustomerNotes,
  type CustomerNotes,
  constraintSlotId,
  firstGoodProduct,
  firstObjection,
  mentionedProducts,
} from './shared/recommend-customer';
import { joinList, withArticle } from './shared/phrasing';
import type { Answer, CustomerReply, EnvContext, EnvDefinition, EnvTask, TurnInfo } from './types';
import { summaryByStock } from './shared/summary-cache';
import { poolOf } from './shared/evaluation-pool';

export interface PdGoal {
  targetId: string;
  targetTitle: string;
  /** What the customer calls the product kind ("charger"). */
  noun: string;
  rec: RecommendationSpec;
}

const OPENINGS = [
  "Hi! I'm looking for {a_noun} {constraints}. What would you recommend?",
  'Can you suggest {a_noun} {constraints}?',
  'I need a new {noun} {constraints}. Please show me your best options.',
  "Hello, I'm shopping for {a_noun} {constraints}. Which ones would you pick?",
  'Looking for a good {noun} {constraints}. Any recommendations?',
  "Hey, what's the best {noun} you have {constraints}?",
];

/** Enough candidates that a full ranking exists: k products meeting every constraint is not required, but the target must be buyable. */
function pickTarget(ctx: EnvContext, rng: Rng): Product {
  const { catalog } = ctx;
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const p = catalog.at(rng.int(0, catalog.size - 1));
    if (p.stockQty < 1 || isDeniedCategory(p.category)) continue;
    if (catalog.indicesInCategory(p.category).length < ctx.axes.k_rec + 1) continue;
    return p;
  }
  throw new Error(`PD: catalog ${catalog.id} has no product fit to be a target`);
}

export function constraintSlots(
  constraints: readonly Constraint[],
  critical: (c: Constraint) => boolean,
  pMissing: number,
  rng: Rng,
): Slot[] {
  return constraints.map((c) =>
    makeSlot(
      {
        id: constraintSlotId(c),
        label: `${c.attr.replace(/_/g, ' ')}: ${describeConstraint(c)}`,
        keywords: constraintKeywords(c),
        critical: critical(c),
        revealText: `I'd like it ${describeConstraint(c)}`,
      },
      pMissing,
      rng,
    ),
  );
}

/** The constraint phrases the opening states (omitted slots left out). */
export function statedPhrases(constraints: readonly Constraint[], slots: readonly Slot[]): string[] {
  return constraints.filter((c) => !slots.find((s) => s.id === constraintSlotId(c))?.omitted).map(describeConstraint);
}

type PdTask = EnvTask<PdGoal, CustomerNotes>;

function generate(ctx: EnvContext, rng: Rng): PdTask {
  const target = pickTarget(ctx, rng);
  const rec = buildRecommendationSpec(ctx, rng.fork('spec'), {
    reference: target,
    mode: 'discovery',
    n: ctx.axes.m,
    k: ctx.axes.k_rec,
    required: ['price'],
  });
  ctx.world.protectedStock.add(target.id); // an in-stock product meeting every constraint always remains
  const slots = constraintSlots(rec.constraints, (c) => c.attr === 'price', ctx.axes.p_missing, rng);
  const noun = categoryNoun(target.category);
  const opening = rng
    .pick(OPENINGS)
    .replace('{a_noun}', withArticle(noun))
    .replace('{noun}', noun)
    .replace('{constraints}', joinList(statedPhrases(rec.constraints, slots)));
  return {
    goal: { targetId: target.id, targetTitle: target.title, noun, rec },
    state: newCustomerNotes(),
    opening,
    slots,
  };
}

// ---------- customer reactions ----------

/** confirm: the message names a product of the wanted kind meeting every constraint and in stock (once per episode). */
function confirm(task: PdTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const named = mentionedProducts(task.state, info, ctx);
  const good = firstGoodProduct(named, task.goal.rec.constraints, ctx, (p) => p.category === task.goal.rec.category);
  if (!good || firstObjection(task, named, task.goal.rec.constraints, ctx)) return null;
  return confirmOnce(task.state, {
    text: `Yes, the ${good.title} looks like what I need. Please send me your recommendations.`,
    act: 'confirm',
  });
}

/** correct: a named product misses a constraint (the customer says which) or is out of stock. */
function respond(task: PdTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  return firstObjection(task, mentionedProducts(task.state, info, ctx), task.goal.rec.constraints, ctx);
}

// ---------- env ----------

export const recommendationAnswerSchema = z.strictObject({
  recommended_product_ids: z
    .array(z.string().min(1))
    .max(50)
    .describe('product ids, best first; the first k (the number of items asked for) are scored'),
});

export const recommendedIdsOf = (answer: Answer | null): string[] => [
  ...new Set(((answer?.recommended_product_ids as string[] | undefined) ?? []).filter((x) => typeof x === 'string')),
];

export const RECOMMENDATION_TOOLS = [
  'catalog.search',
  'catalog.rerank',
  'catalog.get_product',
  'catalog.get_variants',
] as const;

export function summarizeSpec(rec: RecommendationSpec, ctx: EnvContext): string[] {
  const w = rec.persona.weights;
  const ideal = idealList(rec, { world: ctx.world }).map((e) => e.id);
  const pool = poolOf(rec);
  return [
    `constraints: ${rec.constraints.map(describeConstraint).join('; ')}`,
    `persona weights: price ${w.price.toFixed(2)}, rating ${w.rating.toFixed(2)}, shipping ${w.shipping.toFixed(2)}, brand ${w.brand.toFixed(2)} (${rec.persona.preferredBrand}), similarity ${w.similarity.toFixed(2)}`,
    `k = ${rec.k}; evaluation pool ${pool.length} products of ${rec.category}; ideal list now: ${ideal.join(', ')}`,
    ...ctx.world.stockChanges
      .filter((c) => pool.positionOf(c.id) !== undefined)
      .map((c) => `went out of stock at turn ${c.turn}: ${c.id}`),
  ];
}

/** What PD and SUB share: the catalog tools, a ranked list as the answer, scored by the recommendation verifier. */
export function rankedListEnv<G extends { rec: RecommendationSpec }>(): Pick<
  EnvDefinition<G, CustomerNotes>,
  'tools' | 'answerSchema' | 'outOfStock' | 'otherStock' | 'verify' | 'recommendedIds'
> {
  return {
    tools: RECOMMENDATION_TOOLS,
    answerSchema: recommendationAnswerSchema,
    outOfStock: (task, firstSeen, ctx, draw) => recommendationOutOfStock(task.goal.rec, firstSeen, ctx, draw),
    otherStock: (task, id) => (rewardsProduct(task.goal.rec, id) ? null : 'product'),
    verify: (goal, _state, answer, ctx) => scoreRecommendations(goal.rec, recommendedIdsOf(answer), ctx),
    // r_hall over the scored ids only: padding the list past k with retrieved ids must not dilute it.
    recommendedIds: (answer, _ctx, goal) => recommendedIdsOf(answer).slice(0, goal.rec.k),
  };
}

export const pdEnv: EnvDefinition<PdGoal, CustomerNotes> = {
  id: 'PD',
  name: 'Product discovery',
  description: "Recommend products that meet the customer's constraints, best first (recommended_product_ids).",
  passRule: 'r_task ≥ 0.95',
  ...rankedListEnv<PdGoal>(),
  generate,
  confirm,
  respond,
  nudges: ['What can you recommend?', 'Any good options?', 'Which ones would you suggest?'],
  summarize: summaryByStock<PdGoal>((goal, ctx) => [
    `target: ${goal.targetTitle} (${goal.targetId}), a ${goal.noun}`,
    ...summarizeSpec(goal.rec, ctx),
  ]),
};
