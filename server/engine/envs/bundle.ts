// BUNDLE (SPEC §7): one product per required category of a project, within a
// budget. Answer: recommended_product_ids. r_task = 2·F1_cat − 1 − max(0, (cost − B)/B);
// pass: F1 = 1 and cost ≤ B.
//
// Choices (docs/environments.md): |S_req| = min(12, 3 + ⌊d/2⌋) categories from a
// project template; when the template has fewer, the customer combines it with
// more projects ("… and going camping"), capped by the categories the catalog has.
// A product counts for its category only when in stock (as the agent could know
// at the answer, same rule as PD). Precision is over recommended products, so a
// second item of a category or an unknown id lowers F1. cost = Σ price of the
// recommended products. Budget B (probability 0.6 when d ≥ 2) = Σ over categories
// of the 40th-percentile in-stock price (from an even sample of the category) ×
// (1 + δ), δ ~ U(0, δ_max), rounded up to whole dollars.

import { isDeniedCategory } from '../catalog/taxonomy';
import type { Product } from '../catalog/types';
import { makeSlot, type Slot } from '../customer/slots';
import type { Rng } from '../random';
import { num, verdict } from '../evidence';
import type { EvidenceItem, TaskResult } from '../types';
import { productStock } from '../world/stock';
import { categoryNoun } from './cart';
import { recommendationAnswerSchema, recommendedIdsOf } from './pd';
import { pricePercentile } from './shared/persona';
import { knownStock } from './shared/recommend';
import {
  confirmOnce,
  mentionedProducts,
  newCustomerNotes,
  revealSlot,
  type CustomerNotes,
} from './shared/recommend-customer';
import { joinList, money, withArticle } from './shared/phrasing';
import { BUNDLE_TEMPLATES, type BundleTemplate } from './shared/bundle-templates';
import type {
  Answer,
  CustomerReply,
  EnvContext,
  EnvDefinition,
  EnvTask,
  StockDraw,
  TurnInfo,
  VerifyContext,
} from './types';
import { summaryByStock } from './shared/summary-cache';

export interface BundleGoal {
  projects: string[];
  /** Required leaf categories (S_req). */
  categories: string[];
  budget: number | null;
  /** Per category: the price the budget was built from. */
  refPrices: Record<string, number>;
  /** Per category: cheap in-stock products at generation, cheapest first (p_oos always leaves one). */
  anchors: Record<string, string[]>;
}

type BundleTask = EnvTask<BundleGoal, CustomerNotes>;

const SAMPLE_PER_CATEGORY = 48;
const ANCHORS = 6;
const BUDGET_CHANCE = 0.6;

const OPENINGS = [
  "Hi! I'm {project}. Can you pick one of each: {items}?{budget}",
  "I'm {project} and need {items}. What would you get?{budget}",
  "Hello, I'm {project}. Please recommend {items}, one product each.{budget}",
  "Could you build me a bundle? I'm {project}, so I need {items}.{budget}",
  "I'm {project}. I'm after {items}. Just one item for each, please.{budget}",
  "Hey! I'm {project} and I still need {items}. Which would you choose?{budget}",
];

// The templates cut to the categories a catalog has: they depend on the catalog only (built once per catalog).
const USABLE_TEMPLATES = new WeakMap<EnvContext['catalog'], readonly BundleTemplate[]>();
function usableTemplates(catalog: EnvContext['catalog']): readonly BundleTemplate[] {
  let usable = USABLE_TEMPLATES.get(catalog);
  if (!usable) {
    const present = new Set(
      catalog.categories().filter((c) => !isDeniedCategory(c) && catalog.indicesInCategory(c).length > 0),
    );
    usable = Object.freeze(
      BUNDLE_TEMPLATES.map((t) => Object.freeze({ ...t, items: t.items.filter(([c]) => present.has(c)) })).filter(
        (t) => t.items.length > 0,
      ),
    );
    USABLE_TEMPLATES.set(catalog, usable);
  }
  return usable;
}

function pickItems(ctx: EnvContext, rng: Rng): { projects: BundleTemplate[]; items: Array<readonly [string, string]> } {
  const usable = usableTemplates(ctx.catalog);
  if (usable.length === 0) throw new Error(`BUNDLE: catalog ${ctx.catalog.id} has none of the template categories`);
  const need = ctx.knobs.bundleRequired;
  const order = rng.shuffle(usable);
  const projects: BundleTemplate[] = [];
  const items: Array<readonly [string, string]> = [];
  for (const t of order) {
    if (items.length >= need) break;
    const fresh = rng.shuffle(t.items.filter(([c]) => !items.some(([have]) => have === c)));
    if (fresh.length === 0) continue;
    projects.push(t);
    items.push(...fresh.slice(0, need - items.length));
  }
  return { projects, items };
}

/** The 40th-percentile in-stock price and the cheapest in-stock products, from an even sample of the category. */
function categoryStats(ctx: EnvContext, category: string): { refPrice: number; anchors: string[] } {
  // catalog stock and prices never change (p_oos lives in the world): one computation per category
  let byCategory = CATEGORY_STATS.get(ctx.catalog);
  if (!byCategory) CATEGORY_STATS.set(ctx.catalog, (byCategory = new Map()));
  let stats = byCategory.get(category);
  if (!stats) byCategory.set(category, (stats = computeCategoryStats(ctx, category)));
  return { refPrice: stats.refPrice, anchors: [...stats.anchors] };
}

const CATEGORY_STATS = new WeakMap<EnvContext['catalog'], Map<string, { refPrice: number; anchors: string[] }>>();

function computeCategoryStats(ctx: EnvContext, category: string): { refPrice: number; anchors: string[] } {
  const all = ctx.catalog.indicesInCategory(category);
  const step = Math.max(1, all.length / SAMPLE_PER_CATEGORY);
  const sample: Product[] = [];
  for (let x = 0; x < all.length && sample.length < SAMPLE_PER_CATEGORY; x += step) {
    const p = ctx.catalog.at(all[Math.floor(x)]); // only the sample is read: no whole category materialised
    if (p.stockQty > 0) sample.push(p);
  }
  sample.sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1));
  const refPrice = Math.max(
    pricePercentile(
      sample.map((p) => p.price),
      0.4,
    ),
    sample[0]?.price ?? 0,
  );
  return { refPrice, anchors: sample.slice(0, ANCHORS).map((p) => p.id) };
}

function generate(ctx: EnvContext, rng: Rng): BundleTask {
  const { projects, items } = pickItems(ctx, rng);
  const categories = items.map(([c]) => c);
  const refPrices: Record<string, number> = {};
  const anchors: Record<string, string[]> = {};
  for (const c of categories) {
    const stats = categoryStats(ctx, c);
    refPrices[c] = stats.refPrice;
    anchors[c] = stats.anchors;
  }
  // the dearest anchor of each category always stays in stock (still within its budget share)
  for (const c of categories) for (const id of anchors[c].slice(-1)) ctx.world.protectedStock.add(id);
  const hasBudget = ctx.d >= 2 && rng.bernoulli(BUDGET_CHANCE);
  const total = categories.reduce((sum, c) => sum + refPrices[c], 0);
  const budget = hasBudget ? Math.ceil(total * (1 + rng.uniform(0, ctx.knobs.deltaMax)) - 1e-9) : null;
  const slots: Slot[] = budget
    ? [
        makeSlot(
          {
            id: 'budget',
            label: `budget: $${budget} in total`,
            keywords: ['budget', 'spend', 'price', 'cost', 'much', 'afford', 'total'],
            critical: false,
            revealText: `my budget is $${budget} for everything`,
          },
          ctx.axes.p_missing,
          rng,
        ),
      ]
    : [];
  const budgetText = budget && !slots[0].omitted ? ` My budget is $${budget} for everything.` : '';
  const opening = rng
    .pick(OPENINGS)
    .replace('{project}', joinList(projects.map((p) => p.project)))
    .replace('{items}', joinList(items.map(([, phrase]) => phrase)))
    .replace('{budget}', budgetText);
  return {
    goal: { projects: projects.map((p) => p.id), categories, budget, refPrices, anchors },
    state: newCustomerNotes(),
    opening,
    slots,
  };
}

// ---------- verifier ----------

export function verifyBundle(goal: BundleGoal, ids: readonly string[], ctx: VerifyContext): TaskResult {
  const recs = [...new Set(ids)];
  const required = new Set(goal.categories);
  const matched = new Map<string, string>();
  const evidence: EvidenceItem[] = [];
  let cost = 0;
  for (const id of recs) {
    const p = ctx.catalog.get(id);
    const seenAt = ctx.seen.get(id);
    const turns = seenAt === undefined ? [] : [seenAt];
    const seenText = seenAt === undefined ? 'never retrieved' : `seen at turn ${seenAt}`;
    if (!p) {
      evidence.push({ text: `${id}: unknown product id (counts against precision); ${seenText}`, turns, ok: false });
      continue;
    }
    cost += p.price;
    const stock = knownStock(id, p.stockQty, ctx);
    const counts = required.has(p.category) && stock > 0 && !matched.has(p.category);
    const why = !required.has(p.category)
      ? `${p.category} is not a required category`
      : stock <= 0
        ? 'out of stock, does not count'
        : matched.has(p.category)
          ? `second item for ${p.category} (already ${matched.get(p.category)})`
          : `covers ${p.category}`;
    if (counts) matched.set(p.category, id);
    evidence.push({ text: `${id} "${p.title}" (${money(p.price)}): ${why}; ${seenText}`, turns, ok: counts });
  }
  for (const c of goal.categories)
    if (!matched.has(c))
      evidence.push({ text: `required category ${c}: no in-stock product recommended`, turns: [], ok: false });
  const precision = recs.length === 0 ? 0 : matched.size / recs.length;
  const recall = goal.categories.length === 0 ? 0 : matched.size / goal.categories.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const over = goal.budget ? Math.max(0, (cost - goal.budget) / goal.budget) : 0;
  const raw = 2 * f1 - 1 - over;
  const rTask = Math.min(1, Math.max(-1, raw));
  const pass = f1 === 1 && over === 0;
  evidence.push({
    text: `categories covered ${matched.size} of ${goal.categories.length}; precision ${matched.size}/${recs.length}, recall ${matched.size}/${goal.categories.length}, F1_cat = ${f1.toFixed(3)}`,
    turns: [],
    ok: f1 === 1,
    role: 'part',
  });
  evidence.push({
    text: goal.budget
      ? `cost ${money(cost)} vs budget ${money(goal.budget)}: ${over > 0 ? `over by ${(over * 100).toFixed(1)}% → −${over.toFixed(3)}` : 'within budget'}`
      : `cost ${money(cost)}; no budget`,
    turns: [],
    ok: over === 0,
    role: 'part',
  });
  evidence.push({
    text: `r_task = 2·F1_cat − 1 − over = 2·${f1.toFixed(3)} − 1 − ${over.toFixed(3)} = ${num(raw, 3)}${raw === rTask ? '' : `, clipped to ${num(rTask, 3)}`}${verdict(pass, [f1 === 1 ? '' : 'F1_cat < 1', over === 0 ? '' : 'over budget'].filter(Boolean))}`,
    turns: [],
    ok: pass,
    role: 'verdict',
  });
  for (const c of ctx.world.stockChanges.filter((c) => recs.includes(c.id))) {
    const counted = ctx.turn === undefined || ctx.turn > c.turn;
    evidence.push({
      text: `${c.id} went out of stock at turn ${c.turn}; ${counted ? 'counted' : 'not counted (answered in the same turn)'}`,
      turns: [c.turn],
      // a counted change of a recommended product cost the bundle that product's category
      ok: !counted,
    });
  }
  return {
    rTask,
    isCorrect: pass,
    metrics: {
      f1,
      precision,
      recall,
      cost,
      ...(goal.budget === null ? {} : { budget: goal.budget }),
      overBudget: over,
    },
    evidence,
  };
}

// ---------- p_oos ----------

/**
 * p_oos at first sight: each first-seen, in-stock product of a required category that fits its
 * share of the budget goes out of stock when its draw hits; one anchor per category always stays.
 */
function outOfStock(task: BundleTask, firstSeen: readonly string[], ctx: VerifyContext, draw: StockDraw): string[] {
  const goal = task.goal;
  const gone: string[] = [];
  const inStock = (id: string) => !gone.includes(id) && (ctx.world.stockOverrides.get(id) ?? 1) > 0;
  for (const id of firstSeen) {
    const p = ctx.catalog.get(id);
    if (!p || !goal.categories.includes(p.category) || productStock(ctx.world, p) <= 0) continue;
    if (goal.budget && p.price > goal.refPrices[p.category]) continue;
    if (ctx.world.protectedStock.has(id) || !goal.anchors[p.category].some((a) => a !== id && inStock(a))) continue;
    if (draw(id).bernoulli(ctx.axes.p_oos)) gone.push(id);
  }
  return gone;
}

/** A product the goal would reward: of a required category and within its share of the budget. */
function otherStock(task: BundleTask, id: string, ctx: VerifyContext): 'product' | null {
  const p = ctx.catalog.get(id);
  const goal = task.goal;
  const rewarded = p && goal.categories.includes(p.category) && !(goal.budget && p.price > goal.refPrices[p.category]);
  return rewarded ? null : 'product';
}

// ---------- customer reactions ----------

/** One in-stock named product per required category (first named wins). */
function namedCover(goal: BundleGoal, named: readonly Product[], ctx: EnvContext): Map<string, Product> {
  const cover = new Map<string, Product>();
  for (const p of named)
    if (goal.categories.includes(p.category) && !cover.has(p.category) && productStock(ctx.world, p) > 0)
      cover.set(p.category, p);
  return cover;
}

const sumPrices = (ps: Iterable<Product>) => [...ps].reduce((s, p) => s + p.price, 0);

function confirm(task: BundleTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const goal = task.goal;
  const named = mentionedProducts(task.state, info, ctx);
  const cover = namedCover(goal, named, ctx);
  if (cover.size < goal.categories.length || named.some((p) => !goal.categories.includes(p.category))) return null;
  if (goal.budget && sumPrices(cover.values()) > goal.budget) return null;
  return confirmOnce(task.state, {
    text: 'That bundle covers everything I need. Please send it over.',
    act: 'confirm',
  });
}

function respond(task: BundleTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const goal = task.goal;
  const named = mentionedProducts(task.state, info, ctx);
  const extra = named.find((p) => !goal.categories.includes(p.category));
  if (extra) return { text: `I don't need ${withArticle(categoryNoun(extra.category))} for this.`, act: 'correct' };
  const gone = named.find((p) => productStock(ctx.world, p) <= 0);
  if (gone) return { text: `The ${gone.title} shows as out of stock.`, act: 'correct' };
  const cover = namedCover(goal, named, ctx);
  if (goal.budget && cover.size > 0 && sumPrices(cover.values()) > goal.budget) {
    revealSlot(task.slots, 'budget');
    return {
      text: `That adds up to ${money(sumPrices(cover.values()))}, which is over my budget of $${goal.budget}.`,
      act: 'correct',
    };
  }
  return null;
}

export const bundleEnv: EnvDefinition<BundleGoal, CustomerNotes> = {
  id: 'BUNDLE',
  name: 'Bundle planning',
  description:
    "Recommend one product for each item the customer's project needs, within their budget (recommended_product_ids).",
  passRule: 'one right item per required category (F1 = 1) and within the budget',
  tools: ['catalog.search', 'catalog.rerank', 'catalog.get_product'],
  answerSchema: recommendationAnswerSchema,
  generate,
  confirm,
  respond,
  outOfStock,
  otherStock,
  nudges: ['What would you put in the bundle?', 'Can you pick the items for me?', 'Any suggestions for the set?'],
  verify: (goal, _state, answer: Answer | null, ctx) => verifyBundle(goal, recommendedIdsOf(answer), ctx),
  recommendedIds: (answer) => recommendedIdsOf(answer),
  summarize: summaryByStock<BundleGoal>((goal, ctx) => [
    `projects: ${goal.projects.join(' + ')}`,
    `required categories (${goal.categories.length}): ${goal.categories.join(', ')}`,
    goal.budget
      ? `budget $${goal.budget} (reference prices ${goal.categories.map((c) => `${c.split('/')[1]} ${money(goal.refPrices[c])}`).join(', ')})`
      : 'no budget',
    ...ctx.world.stockChanges
      .filter((c) => goal.categories.includes(ctx.catalog.get(c.id)?.category ?? ''))
      .map((c) => `went out of stock at turn ${c.turn}: ${c.id}`),
  ]),
};
