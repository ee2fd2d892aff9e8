// SUB, substitution (SPEC §7): the product the customer wanted is out of stock;
// they want a similar, compatible alternative. At least one compatibility
// attribute (connector_type, size or material) is an equality constraint and
// gates relevance. Relevance λ_sim·sim + (1 − λ_sim)·s (sim: TF-IDF cosine,
// pool-terms.ts); r_task = 0.80·r_rank + 0.20·r_oos; pass ≥ 0.95.

import { isDeniedCategory } from '../catalog/taxonomy';
import type { Product } from '../catalog/types';
import type { Rng } from '../random';
import { categoryNoun } from './cart';
import { constraintSlots, rankedListEnv, statedPhrases, summarizeSpec } from './pd';
import { buildRecommendationSpec, type RecommendationSpec } from './shared/recommend';
import {
  confirmOnce,
  firstGoodProduct,
  firstObjection,
  mentionedProducts,
  newCustomerNotes,
  type CustomerNotes,
} from './shared/recommend-customer';
import { joinList } from './shared/phrasing';
import { poolOf } from './shared/evaluation-pool';
import type { CustomerReply, EnvContext, EnvDefinition, EnvTask, TurnInfo } from './types';
import { summaryByStock } from './shared/summary-cache';

export const COMPATIBILITY_ATTRS = ['connector_type', 'size', 'material'] as const;

export interface SubGoal {
  originalId: string;
  originalTitle: string;
  noun: string;
  /** The compatibility attributes constrained by equality. */
  compatibility: string[];
  rec: RecommendationSpec;
}

const OPENINGS = [
  'The {title} I wanted is out of stock. Can you find me something similar {constraints}?',
  "I was about to order the {title}, but it's sold out. What's a good alternative {constraints}?",
  'Hi, the {title} is unavailable. Could you recommend a close substitute {constraints}?',
  'My usual {noun}, the {title}, is out of stock. Do you have anything similar {constraints}?',
  "Can you help me replace the {title}? It's out of stock and I need something like it {constraints}.",
  "Hello! I can't buy the {title} because it's out of stock. Please suggest similar options {constraints}.",
];

const MAX_ATTEMPTS = 200;

type SubTask = EnvTask<SubGoal, CustomerNotes>;

function generate(ctx: EnvContext, rng: Rng): SubTask {
  const { catalog } = ctx;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const original: Product = catalog.at(rng.int(0, catalog.size - 1));
    if (isDeniedCategory(original.category)) continue;
    const compat = COMPATIBILITY_ATTRS.filter((a) => original.attrs[a] !== undefined);
    if (compat.length === 0) continue;
    const specRng = rng.fork(`spec${attempt}`);
    const first = specRng.pick(compat);
    const rec = buildRecommendationSpec(ctx, specRng, {
      reference: original,
      mode: 'substitute',
      n: ctx.axes.m,
      k: ctx.axes.k_rec,
      required: [first],
      compatibility: [...compat],
    });
    // solvable: k compatible alternatives in stock (the original itself is excluded from the pool)
    const pool = poolOf(rec);
    const buyable = pool.ids.filter((_, j) => pool.rel(j) > 0 && pool.stock[j] > 0);
    if (buyable.length < rec.k) continue;
    ctx.world.stockOverrides.set(original.id, 0);
    ctx.world.protectedStock.add(buyable[0]);
    const slots = constraintSlots(rec.constraints, (c) => rec.compatibility.includes(c.attr), ctx.axes.p_missing, rng);
    const noun = categoryNoun(original.category);
    const phrases = statedPhrases(rec.constraints, slots);
    const opening = rng
      .pick(OPENINGS)
      .replace('{title}', original.title)
      .replace('{noun}', noun)
      .replace(' {constraints}', phrases.length ? `, ${joinList(phrases)}` : '');
    return {
      goal: { originalId: original.id, originalTitle: original.title, noun, compatibility: rec.compatibility, rec },
      state: newCustomerNotes(),
      opening,
      slots,
    };
  }
  throw new Error(`SUB: catalog ${catalog.id} has no product with enough compatible alternatives`);
}

// ---------- customer reactions ----------

const notTheOriginal = (task: SubTask) => (p: Product) =>
  p.id === task.goal.originalId ? `That's the one that's out of stock. I need an alternative.` : null;

function confirm(task: SubTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const named = mentionedProducts(task.state, info, ctx);
  const { constraints } = task.goal.rec;
  const good = firstGoodProduct(
    named,
    constraints,
    ctx,
    (p) => p.id !== task.goal.originalId && p.category === task.goal.rec.category,
  );
  if (!good || firstObjection(task, named, constraints, ctx, notTheOriginal(task))) return null;
  return confirmOnce(task.state, {
    text: `The ${good.title} could work as a replacement. Send me your list.`,
    act: 'confirm',
  });
}

function respond(task: SubTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  return firstObjection(
    task,
    mentionedProducts(task.state, info, ctx),
    task.goal.rec.constraints,
    ctx,
    notTheOriginal(task),
  );
}

export const subEnv: EnvDefinition<SubGoal, CustomerNotes> = {
  id: 'SUB',
  name: 'Substitution',
  description:
    'The product the customer wanted is out of stock: recommend similar, compatible alternatives, best first (recommended_product_ids).',
  passRule: 'r_task ≥ 0.95',
  ...rankedListEnv<SubGoal>(),
  generate,
  confirm,
  respond,
  nudges: ['Is there anything similar?', 'What would you suggest instead?', 'Any alternatives?'],
  summarize: summaryByStock<SubGoal>((goal, ctx) => [
    `original (out of stock): ${goal.originalTitle} (${goal.originalId}), a ${goal.noun}`,
    `compatibility (gates relevance): ${goal.compatibility.join(', ')}; λ_sim = ${goal.rec.lambdaSim.toFixed(2)}`,
    ...summarizeSpec(goal.rec, ctx),
  ]),
};
