// POLICY: a store-policy question whose answer depends on up to B_branch
// conditions (SPEC §7). The generator picks a topic uniformly, c ~ U{1..B_branch} (engine v3;
// v1/v2: P(c) ∝ c), and a rule of
// that topic with c clauses (world/policy-kb.ts; the department tables give every topic at
// least six look-alike rules with different answers at c ≤ 2), and facts that make it the
// most specific applicable rule of its topic; the customer states 2·B_branch + 1 facts
// (engine v3; v1/v2: B_branch + 1) in a shuffled order: the rule's (all but the first may be left out with
// p_missing and told when asked) plus distractors — fields of look-alike rules of
// the topic, with values that leave those rules inapplicable where possible. So
// neither the budgets nor the number of facts tell the clause count, and only the
// stated facts decide the answer (docs/environments.md). Answer: policy_answer.
//   numeric:     r_task = 2·(min/max)^4 − 1; exact match (incl. 0 = 0) → 1; a
//                negative, zero-against-nonzero or unparseable answer → −1.
//   categorical: ±1, exact match after normalisation (case, whitespace,
//                punctuation; "&" reads as "and").
// pass: r_task ≥ 0.95.

import { z } from 'zod';
import { makeSlot, type Slot } from '../customer/slots';
import { joinList } from './shared/phrasing';
import type { Rng } from '../random';
import { PASS_THRESHOLD } from '../reward';
import { exact, num, verdict } from '../evidence';
import type { EvidenceItem, TaskResult } from '../types';
import {
  applicableRules,
  FIELD_VALUES,
  rulesOfTopic,
  NUMERIC_FIELDS,
  policyBook,
  POLICY_RULES,
  TOPICS,
  type Facts,
  type FactValue,
  type PolicyCondition,
  type PolicyField,
  type PolicyRule,
} from '../world/policy-kb';
import { WORLD_TOPICS } from '../world/policy-tables';
import { searchPolicies } from '../world/policy-search';
import { POLICY_TOP_K_DEFAULT } from '../tools/policy-tools';
import { ENGINE_VERSION, V4_RULES, REV3_RULES } from '../version';
import type { Answer, EnvContext, EnvDefinition, EnvTask, VerifyContext } from './types';
import { summaryByStock } from './shared/summary-cache';

export interface PolicyGoal {
  ruleId: string;
  topic: string;
  question: string;
  /** The rule's facts, in its condition order. */
  facts: Facts;
  /** Facts the customer also states that no applicable rule needs (look-alike rules' fields). */
  distractors?: Facts;
  answerType: 'numeric' | 'categorical';
  answer: number | string;
}

export const MAX_CLAUSES = Math.max(...POLICY_RULES.map((r) => r.conditions.length));

const OPENINGS = [
  'Hi! {facts} {question}',
  'Quick policy question: {question} {facts}',
  'Hello, I was wondering: {question} For context: {facts}',
  'Can you check the store policy for me? {facts} {question}',
  'I have a question about your policies. {facts} {question}',
  '{question} {facts}',
];

// ---------- facts: values and how the customer says them ----------

const round2 = (x: number) => Math.round(x * 100) / 100;

/** A value of the condition's field that satisfies it. */
function factFor(c: PolicyCondition, rng: Rng): FactValue {
  if (!NUMERIC_FIELDS.has(c.field)) return c.value;
  const v = Number(c.value);
  if (c.field === 'order_total') {
    if (c.op === 'lt') return round2(v * rng.uniform(0.35, 0.95));
    if (c.op === 'lte') return round2(v * rng.uniform(0.35, 1));
    return round2(v * rng.uniform(1.05, 1.8));
  }
  const spread = Math.max(2, Math.round(v / 2));
  const low = c.field === 'membership_months' ? 0 : 1;
  if (c.op === 'lt') return rng.int(Math.min(low, v - 1), v - 1);
  if (c.op === 'lte') return rng.int(Math.min(low, v), v);
  if (c.op === 'gt') return v + rng.int(1, spread);
  return v + rng.int(0, spread);
}

const DEPARTMENT_PHRASE: Record<string, string> = {
  electronics: 'an electronics item',
  clothing: 'a clothing item',
  furniture: 'a piece of furniture',
  grocery: 'a grocery item',
  home_kitchen: 'a home & kitchen item',
  office: 'office supplies',
  tools: 'a tool',
};

/** What the customer says to state a fact (first person, lower case). */
export function factPhrase(field: PolicyField, v: FactValue): string {
  switch (field) {
    case 'member_tier':
      return `I'm a ${v} member`;
    case 'department':
      return `it's ${DEPARTMENT_PHRASE[String(v)] ?? `a ${v} item`}`;
    case 'order_total':
      return `my order total is $${Number(v).toFixed(2)}`;
    case 'days_since_delivery':
      return `it was delivered ${v} days ago`;
    case 'item_condition':
      return v === 'unopened' ? "it's still unopened" : v === 'opened' ? "I've opened it" : "it's defective";
    case 'destination':
      return v === 'contiguous_us'
        ? 'it ships to an address in the contiguous US'
        : v === 'alaska_hawaii'
          ? 'it ships to Alaska or Hawaii'
          : 'it ships internationally';
    case 'shipping_speed':
      return `I'd choose ${v} shipping`;
    case 'payment_method':
      return v === 'credit_card'
        ? "I'm paying by credit card"
        : v === 'gift_card'
          ? "I'm paying with a gift card"
          : "I'm paying with PayPal";
    case 'purchase_channel':
      return v === 'online' ? 'I bought it online' : 'I bought it in store';
    case 'return_method':
      return v === 'mail'
        ? "I'd send it back by mail"
        : v === 'pickup'
          ? "I'd want a courier pickup"
          : "I'd drop it off at a store";
    case 'product_age_months':
      return `I bought it ${v} month${v === 1 ? '' : 's'} ago`;
    case 'membership_months':
      return Number(v) === 0
        ? 'I joined less than a month ago'
        : `I've been a member for ${v} month${v === 1 ? '' : 's'}`;
  }
}

const FIELD_KEYWORDS: Record<PolicyField, string[]> = {
  member_tier: ['member', 'membership', 'tier', 'plan', 'account', 'subscription', 'level'],
  order_total: ['total', 'amount', 'spend', 'spending', 'cost', 'much', 'value', 'price'],
  department: ['category', 'item', 'product', 'kind', 'type', 'department', 'buying'],
  days_since_delivery: ['delivered', 'delivery', 'when', 'days', 'long', 'arrive', 'arrived'],
  item_condition: ['condition', 'opened', 'unopened', 'open', 'used', 'damaged', 'defective', 'state'],
  destination: ['where', 'destination', 'address', 'location', 'ship', 'shipping'],
  shipping_speed: ['speed', 'shipping', 'express', 'expedited', 'overnight', 'standard', 'fast', 'option'],
  payment_method: ['pay', 'paid', 'paying', 'payment', 'card', 'method'],
  purchase_channel: ['online', 'store', 'channel', 'where', 'bought', 'purchase', 'purchased'],
  return_method: ['return', 'method', 'mail', 'pickup', 'send', 'drop'],
  product_age_months: ['old', 'age', 'months', 'long', 'bought', 'purchased', 'when'],
  membership_months: ['long', 'months', 'member', 'since', 'joined'],
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// ---------- generator ----------

/**
 * The topics questions are asked about (every one has rules of 1..MAX_CLAUSES clauses,
 * policy-tables.ts). Not the RETURN world's own facts (return windows and fees): those follow
 * the department alone, with no look-alike rules, so they would be guessable (issue 31).
 */
export const POLICY_TOPICS: readonly string[] = [...new Set(POLICY_RULES.map((r) => r.topic))].filter(
  (t) => !WORLD_TOPICS.includes(t),
);
/** Engines v1/v2 asked about every topic (their rule book had look-alike tables for all). */
const POLICY_TOPICS_V2: readonly string[] = [...new Set(policyBook(REV3_RULES - 1).rules.map((r) => r.topic))];

/** Rules of a topic with exactly `clauses` conditions, else the largest count below it. */
export function rulesWithClauses(topic: string, clauses: number, engineVersion?: number): PolicyRule[] {
  const ofTopic = rulesOfTopic(topic, engineVersion);
  for (let n = Math.min(clauses, MAX_CLAUSES); n >= 1; n--) {
    const rules = ofTopic.filter((r) => r.conditions.length === n);
    if (rules.length > 0) return rules;
  }
  return [...ofTopic];
}

/**
 * The clause count c ∈ 1..max. Engine v3: uniform, so the budgets (which give B_branch) point at
 * no count; under P(c) ∝ c (v1/v2) c = B_branch was the mode, and taking the topic's rule with
 * B_branch clauses from one search passed 10% at d ≥ 3 (issue 27). The one-clause rule, which a
 * department word picks out, is held off by the extra distractors (factsStated).
 */
export function clauseCount(max: number, rng: Rng, engineVersion?: number): number {
  if ((engineVersion ?? REV3_RULES) >= REV3_RULES) return rng.int(1, max);
  let u = rng.int(1, (max * (max + 1)) / 2);
  for (let c = 1; ; c++) if ((u -= c) <= 0) return c;
}

/**
 * How many facts the customer states (the rule's c plus distractors): B_branch + 1 in v1/v2 (the
 * top policy.search hit of the customer's words was the deciding rule in 6–7% of episodes at
 * d ≥ 3), 2·B_branch + 1 in v3, 3·B_branch + 1 from v4 (with v4's branch rules, a facts-blind
 * pick by the words and the budgets fell from 6.8% to 4.2% over d 3–12, issue 27).
 */
export const factsStated = (branch: number, engineVersion = ENGINE_VERSION) =>
  engineVersion >= V4_RULES ? 3 * branch + 1 : engineVersion >= REV3_RULES ? 2 * branch + 1 : branch + 1;

/** Facts under which `rule` is the single most specific applicable rule of its topic; null if none was found. */
export function factsFor(rule: PolicyRule, rng: Rng, engineVersion?: number): Facts | null {
  for (let attempt = 0; attempt < 30; attempt++) {
    const facts: Facts = {};
    for (const c of rule.conditions) facts[c.field] = factFor(c, rng);
    const [first, second] = applicableRules(rule.topic, facts, engineVersion);
    if (first === rule && (!second || second.conditions.length < rule.conditions.length)) return facts;
  }
  return null;
}

/** A value for a field that no condition of `rule` constrains: categorical from its list, numeric in a plausible range. */
function anyValue(field: PolicyField, rng: Rng): FactValue {
  const values = FIELD_VALUES[field];
  if (values) return rng.pick(values);
  if (field === 'order_total') return round2(rng.uniform(10, 1500));
  if (field === 'days_since_delivery') return rng.int(1, 60);
  if (field === 'product_age_months') return rng.int(1, 40);
  return rng.int(0, 30); // membership_months
}

const ALL_FIELDS = Object.keys(FIELD_KEYWORDS) as PolicyField[];

/**
 * The condition fields of the rule's siblings (the other rules of its topic), and of those that
 * extend it (same conditions and more), in rule order: they depend on the rule only (the policy
 * tables are constants), so they are listed once per rule; each episode shuffles its own copy.
 */
export function siblingFields(rule: PolicyRule, engineVersion?: number): SiblingFields {
  // kept per rule book (its topic's list): the books of v2, v3 and v4 share the hand-written rules
  const topic = rulesOfTopic(rule.topic, engineVersion);
  let cache = SIBLING_FIELDS.get(topic);
  if (!cache) SIBLING_FIELDS.set(topic, (cache = new Map()));
  let fields = cache.get(rule);
  if (fields === undefined) {
    const siblings = topic.filter((r) => r !== rule);
    // first the extra fields of rules that extend this one: stated with a value that fails them,
    // they make the wrong, longer rule the closest match in words
    const extends_ = siblings.filter((r) =>
      rule.conditions.every((c) =>
        r.conditions.some((o) => o.field === c.field && o.op === c.op && o.value === c.value),
      ),
    );
    // frozen: every episode of this rule reads the same lists
    fields = Object.freeze({
      longer: Object.freeze(extends_.flatMap((r) => r.conditions.map((c) => c.field))),
      lookAlike: Object.freeze(siblings.flatMap((r) => r.conditions.map((c) => c.field))),
    });
    cache.set(rule, fields);
  }
  return fields;
}
type SiblingFields = Readonly<{ longer: readonly PolicyField[]; lookAlike: readonly PolicyField[] }>;
const SIBLING_FIELDS = new WeakMap<readonly PolicyRule[], Map<PolicyRule, SiblingFields>>();

/**
 * Distractor facts: `count` fields the rule does not use, taken first from look-alike rules of
 * the same topic (so a reader matching field names, not values, picks the wrong rule), each with
 * a value that keeps `rule` the single most specific applicable rule.
 */
export function distractorsFor(rule: PolicyRule, facts: Facts, count: number, rng: Rng, engineVersion?: number): Facts {
  const used = new Set<PolicyField>(rule.conditions.map((c) => c.field));
  const fields = siblingFields(rule, engineVersion);
  const longer = rng.shuffle(fields.longer);
  const lookAlike = rng.shuffle(fields.lookAlike);
  const others = rng.shuffle(ALL_FIELDS);
  const out: Facts = {};
  for (const field of [...new Set([...longer, ...lookAlike, ...others])]) {
    if (Object.keys(out).length >= count) break;
    if (used.has(field)) continue;
    for (let attempt = 0; attempt < 8; attempt++) {
      const value = anyValue(field, rng);
      const [first, second] = applicableRules(
        rule.topic,
        Object.assign({}, facts, out, { [field]: value }),
        engineVersion,
      );
      if (first === rule && (!second || second.conditions.length < rule.conditions.length)) {
        out[field] = value;
        used.add(field);
        break;
      }
    }
  }
  return out;
}

function generate(ctx: EnvContext, rng: Rng): EnvTask<PolicyGoal, null> {
  // topic first, then the clause count, then a rule: every topic then has at least six equally
  // likely answers at B_branch ≥ 2, so neither the question nor the budgets give the answer away
  const version = ctx.engineVersion;
  const topic = rng.pick((version ?? REV3_RULES) >= REV3_RULES ? POLICY_TOPICS : POLICY_TOPICS_V2);
  const clauses = clauseCount(Math.max(1, Math.min(ctx.axes.B_branch, MAX_CLAUSES)), rng, version);
  const candidates = rulesWithClauses(topic, clauses, version);
  let rule = rng.pick(candidates);
  let facts = factsFor(rule, rng, version);
  for (let i = 0; !facts && i < candidates.length; i++) facts = factsFor((rule = candidates[i]), rng, version);
  if (!facts) throw new Error(`POLICY: no rule with ${clauses} clauses yields unambiguous facts`);
  const distractors = distractorsFor(
    rule,
    facts,
    factsStated(ctx.axes.B_branch, version) - rule.conditions.length,
    rng,
    version,
  );
  const slots: Slot[] = rule.conditions.map((c, i) =>
    makeSlot(
      {
        id: `fact:${c.field}`,
        label: `${c.field.replace(/_/g, ' ')}: ${facts[c.field]}`,
        keywords: FIELD_KEYWORDS[c.field],
        critical: i === 0,
        revealText: factPhrase(c.field, facts[c.field]!),
      },
      ctx.axes.p_missing,
      rng,
    ),
  );
  const stated = rng.shuffle([
    ...slots.filter((s) => !s.omitted).map((s) => s.revealText),
    ...Object.entries(distractors).map(([f, v]) => factPhrase(f as PolicyField, v)),
  ]);
  const question = TOPICS[rule.topic].question;
  const opening = rng
    .pick(OPENINGS)
    .replace('{facts}', `${capitalise(joinList(stated))}.`)
    .replace('{question}', question);
  return {
    goal: {
      ruleId: rule.rule_id,
      topic: rule.topic,
      question,
      facts,
      distractors,
      answerType: rule.answer_type,
      answer: rule.answer,
    },
    state: null,
    opening,
    slots,
  };
}

// ---------- verifier ----------

export const policyAnswerSchema = z.strictObject({
  policy_answer: z
    .union([z.number(), z.string().min(1)])
    .describe(
      "the answer: a number in the rule's unit (dollars, days, percent, months, points) or the rule's exact wording for a categorical answer",
    ),
});

/** Lower case, "&" → "and", punctuation → space, whitespace collapsed. */
export function normaliseText(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A number from a number or a string like "$35.00", "35", "1,299.50", "15%"; null if none. */
export function parseNumber(x: unknown): number | null {
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x !== 'string') return null;
  const m = x.replace(/,/g, '').match(/-?\d+(?:\.\d+)?/);
  return m ? Number(m[0]) : null;
}

/** r_task of a numeric answer against the expected value (see the header for 0 and negatives). */
export function numericScore(given: number | null, expected: number): number {
  if (given === null || given < 0) return -1;
  if (given === expected) return 1;
  const hi = Math.max(given, expected);
  const lo = Math.min(given, expected);
  return hi === 0 ? 1 : 2 * Math.pow(lo / hi, 4) - 1;
}

/**
 * The first turn at which `ruleId` appeared in a policy.search result of this episode, or null.
 * policy.search is pure, so each successful call is run again from its recorded arguments.
 */
export function groundedAt(ruleId: string, ctx: Pick<VerifyContext, 'calls' | 'engineVersion'>): number | null {
  for (const call of ctx.calls) {
    if (call.name !== 'policy.search' || call.error !== null) continue;
    const args = call.args as { query: string; top_k?: number };
    const hits = searchPolicies(args.query, args.top_k ?? POLICY_TOP_K_DEFAULT, ctx.engineVersion);
    if (hits.some((hit) => hit.rule_id === ruleId)) return call.turn;
  }
  return null;
}

function verify(goal: PolicyGoal, answer: Answer | null, ctx: VerifyContext): TaskResult {
  const given = answer?.policy_answer;
  let rTask: number;
  let how: string;
  if (goal.answerType === 'numeric') {
    const x = parseNumber(given);
    rTask = numericScore(x, goal.answer as number);
    how =
      x === null
        ? 'no number in the answer → −1'
        : `2·(min/max)^4 − 1 with ${exact(x)} vs ${exact(goal.answer as number)} → ${num(rTask, 4)}`;
  } else {
    const a = given === undefined ? '' : normaliseText(String(given));
    rTask = a === normaliseText(String(goal.answer)) ? 1 : -1;
    how = `normalised "${a}" vs "${normaliseText(String(goal.answer))}" → ${num(rTask)}`;
  }
  // SPEC §8 rev 3: only an answer grounded in the deciding rule, as retrieved, can earn or pass
  const grounded = groundedAt(goal.ruleId, ctx);
  const earned = rTask;
  if (grounded === null) rTask = Math.min(rTask, 0);
  const factsText = Object.entries(goal.facts)
    .map(([f, v]) => `${f} = ${v}`)
    .join(', ');
  const evidence: EvidenceItem[] = [
    {
      text: `rule ${goal.ruleId} applies to ${factsText}; its answer is ${JSON.stringify(goal.answer)}`,
      turns: [],
      ok: true,
    },
    grounded === null
      ? {
          text: `rule ${goal.ruleId} never appeared in a policy.search result: the answer is not grounded, r_task = min(${num(earned, 4)}, 0)`,
          turns: [],
          ok: false,
        }
      : { text: `rule ${goal.ruleId} was retrieved by policy.search at turn ${grounded}`, turns: [grounded], ok: true },
    {
      text: `answered ${JSON.stringify(given ?? null)}: ${how} (pass ≥ ${PASS_THRESHOLD})${verdict(rTask >= PASS_THRESHOLD)}`,
      turns: [ctx.turn],
      ok: rTask >= PASS_THRESHOLD,
      role: 'verdict',
    },
  ];
  return { rTask, isCorrect: rTask >= PASS_THRESHOLD, metrics: { rTask }, evidence };
}

// ---------- customer reactions ----------

// No confirm hook: the customer asks because they do not know the policy, so no reply may
// depend on whether the agent's answer is right (that would leak the answer).

export const policyEnv: EnvDefinition<PolicyGoal, null> = {
  id: 'POLICY',
  name: 'Policy question',
  description: "Answer the customer's store-policy question from the policy rules (policy_answer).",
  passRule: 'r_task ≥ 0.95',
  tools: ['policy.search', 'datetime.now'],
  answerSchema: policyAnswerSchema,
  generate,
  nudges: ['So what does the policy say?', 'Could you look that up for me?', 'Do you know the answer?'],
  verify: (goal, _state, answer, ctx) => verify(goal, answer, ctx),
  recommendedIds: () => [],
  summarize: summaryByStock<PolicyGoal>((goal) => [
    `rule ${goal.ruleId} (${goal.topic}): "${goal.question}"`,
    `facts: ${Object.entries(goal.facts)
      .map(([f, v]) => `${f} = ${v}`)
      .join(', ')}`,
    `distractor facts: ${
      Object.entries(goal.distractors ?? {})
        .map(([f, v]) => `${f} = ${v}`)
        .join(', ') || 'none'
    }`,
    `answer (${goal.answerType}): ${JSON.stringify(goal.answer)}`,
  ]),
};
