// POLICY heuristic: read the customer's facts, search the policy rules with the
// question, read each rule's conditions back from its text, and answer with the
// most specific rule of the question's topic whose conditions all hold. Asks for
// the facts those rules need when the customer has not given them.

import { conditionHolds, type ConditionOp, type FactValue } from '../../world/policy-kb';
import { deslang, sameWord, words } from './text';
import type { Strategy, TurnInput, TurnOutput } from './types';

type Facts = Record<string, string | number>;

/** The customer's fact sentences (envs/policy.ts factPhrase), read back. */
export function parseFacts(raw: string): Facts {
  const t = deslang(raw).toLowerCase();
  const f: Facts = {};
  const tier = /\b(basic|plus|premium) member\b/.exec(t);
  if (tier) f.member_tier = tier[1];
  const dept: Array<[RegExp, string]> = [
    [/electronics item/, 'electronics'],
    [/clothing item/, 'clothing'],
    [/piece of furniture/, 'furniture'],
    [/grocery item/, 'grocery'],
    [/home & kitchen item|home and kitchen item/, 'home_kitchen'],
    [/office supplies/, 'office'],
    [/\ba tool\b/, 'tools'],
  ];
  for (const [re, v] of dept) if (re.test(t)) f.department = v;
  const total = /order total is \$(\d+(?:\.\d+)?)/.exec(t);
  if (total) f.order_total = Number(total[1]);
  const delivered = /delivered (\d+) days? ago/.exec(t);
  if (delivered) f.days_since_delivery = Number(delivered[1]);
  if (/still unopened/.test(t)) f.item_condition = 'unopened';
  else if (/i've opened it|i have opened it/.test(t)) f.item_condition = 'opened';
  else if (/it's defective|it is defective/.test(t)) f.item_condition = 'defective';
  if (/contiguous us/.test(t)) f.destination = 'contiguous_us';
  else if (/alaska or hawaii/.test(t)) f.destination = 'alaska_hawaii';
  else if (/ships internationally/.test(t)) f.destination = 'international';
  const speed = /choose (standard|expedited|overnight) shipping/.exec(t);
  if (speed) f.shipping_speed = speed[1];
  if (/paying by credit card/.test(t)) f.payment_method = 'credit_card';
  else if (/gift card/.test(t)) f.payment_method = 'gift_card';
  else if (/paypal/.test(t)) f.payment_method = 'paypal';
  if (/bought it online/.test(t)) f.purchase_channel = 'online';
  else if (/bought it in store/.test(t)) f.purchase_channel = 'in_store';
  if (/back by mail/.test(t)) f.return_method = 'mail';
  else if (/courier pickup/.test(t)) f.return_method = 'pickup';
  else if (/drop it off at a store/.test(t)) f.return_method = 'in_store';
  const age = /bought it (\d+) months? ago/.exec(t);
  if (age) f.product_age_months = Number(age[1]);
  if (/joined less than a month ago/.test(t)) f.membership_months = 0;
  const months = /member for (\d+) months?/.exec(t);
  if (months) f.membership_months = Number(months[1]);
  return f;
}

/** A rule's condition as read from its text (field names as the rule words them). */
interface Condition {
  field: string;
  op: ConditionOp;
  value: FactValue;
}

const CMP = /^(under |over )?\$?(\d+(?:\.\d+)?)(?: (?:days|months))?( or less| or more)?$/;
function comparison(text: string): { op: Condition['op']; value: number } | null {
  const m = CMP.exec(text.trim());
  if (!m) return null;
  const op =
    m[1] === 'under '
      ? 'lt'
      : m[1] === 'over '
        ? 'gt'
        : m[3] === ' or less'
          ? 'lte'
          : m[3] === ' or more'
            ? 'gte'
            : 'eq';
  return { op, value: Number(m[2]) };
}

/** One condition as world/policy-kb.ts describes it ("orders totalling $35.00 or more"). */
export function parseCondition(text: string): Condition | null {
  const t = text.trim().toLowerCase();
  let m: RegExpExecArray | null;
  if ((m = /^(basic|plus|premium) members$/.exec(t))) return { field: 'member_tier', op: 'eq', value: m[1] };
  const depts: Record<string, string> = { 'home & kitchen': 'home_kitchen' };
  if ((m = /^(electronics|clothing|furniture|grocery|home & kitchen|office|tools) items$/.exec(t)))
    return { field: 'department', op: 'eq', value: depts[m[1]] ?? m[1] };
  if ((m = /^orders totalling (.+)$/.exec(t))) return withCmp('order_total', m[1]);
  if ((m = /^requests made (.+) after delivery$/.exec(t))) return withCmp('days_since_delivery', m[1]);
  if ((m = /^(unopened|opened|defective) items$/.exec(t))) return { field: 'item_condition', op: 'eq', value: m[1] };
  if (t === 'shipping to the contiguous us') return { field: 'destination', op: 'eq', value: 'contiguous_us' };
  if (t === 'shipping to alaska or hawaii') return { field: 'destination', op: 'eq', value: 'alaska_hawaii' };
  if (t === 'shipping to international addresses') return { field: 'destination', op: 'eq', value: 'international' };
  if ((m = /^(standard|expedited|overnight) shipping$/.exec(t)))
    return { field: 'shipping_speed', op: 'eq', value: m[1] };
  if ((m = /^orders paid by (credit card|gift card|paypal)$/.exec(t)))
    return { field: 'payment_method', op: 'eq', value: m[1].replace(' ', '_') };
  if (t === 'online purchases') return { field: 'purchase_channel', op: 'eq', value: 'online' };
  if (t === 'in-store purchases') return { field: 'purchase_channel', op: 'eq', value: 'in_store' };
  if (t === 'returns by mail') return { field: 'return_method', op: 'eq', value: 'mail' };
  if (t === 'returns by courier pickup') return { field: 'return_method', op: 'eq', value: 'pickup' };
  if (t === 'returns dropped off in store') return { field: 'return_method', op: 'eq', value: 'in_store' };
  if ((m = /^products (.+) old$/.exec(t))) return withCmp('product_age_months', m[1]);
  if ((m = /^memberships held (.+)$/.exec(t))) return withCmp('membership_months', m[1]);
  return null;
}

function withCmp(field: string, text: string): Condition | null {
  const c = comparison(text);
  return c ? { field, ...c } : null;
}

const ANSWER_SPLIT =
  / (?:is|takes|arrives within|is issued as|can be paid in|gives an?|lasts|earns|costs|are honoured for|earn) /;

export interface ReadRule {
  id: string;
  conditions: Condition[];
  /** The sentence without its answer: rules with the same stem answer the same question. */
  stem: string;
  answer: string;
}

/** "Applies to A, B and C: the free-shipping minimum is $35.00." → conditions, stem, answer. */
export function readRule(hit: { rule_id: string; text: string }): ReadRule | null {
  const m = /^Applies to (.+?): (.+?)\.?$/.exec(hit.text);
  if (!m) return null;
  const conditions = m[1].split(/, | and /).map(parseCondition);
  if (conditions.some((c) => c === null)) return null;
  const sentence = m[2];
  const split = ANSWER_SPLIT.exec(sentence);
  if (!split) return null;
  return {
    id: hit.rule_id,
    conditions: conditions as Condition[],
    stem: sentence.slice(0, split.index + split[0].length).toLowerCase(),
    answer: sentence.slice(split.index + split[0].length),
  };
}

/** The answer as the verifier reads it: a number for amounts and counts, else the exact wording. */
export function answerValue(answer: string): string | number {
  const numeric = /^\$?(\d+(?:\.\d+)?)(?:%| days| months| points)?(?: .*)?$/.exec(answer);
  if (numeric && !/business days?|payments?|coupons?/.test(answer)) return Number(numeric[1]);
  return answer;
}

/** Words that ask for each fact (the customer reveals facts its question mentions). */
const ASK: Record<string, string> = {
  member_tier: 'your membership tier',
  order_total: 'your order total',
  department: 'what kind of item it is',
  days_since_delivery: 'how many days since it was delivered',
  item_condition: 'its condition (opened or not)',
  destination: 'the shipping destination',
  shipping_speed: 'the shipping speed',
  payment_method: 'your payment method',
  purchase_channel: 'whether you purchased online or in store',
  return_method: 'the return method (mail, pickup or drop off)',
  product_age_months: 'how old the product is in months',
  membership_months: 'how many months you have been a member',
};

/** The customer's question: the sentences that end in "?" (the facts are stated around it). */
const questionOf = (message: string) => (deslang(message).match(/[^.?!]*\?/g) ?? []).join(' ');

/** How many of the question's words a rule's answer sentence shares (typos tolerated): its topic. */
function topicScore(stem: string, question: string[]): number {
  return words(stem).filter((w) => w.length > 3 && question.some((q) => sameWord(q, w))).length;
}

export function createPolicyStrategy(): Strategy {
  let facts: Facts = {};
  let rules: ReadRule[] = [];
  let turn = 0;
  let asked = false;
  let question: string[] = [];
  let focused = false;

  return {
    envId: 'POLICY',
    step(input: TurnInput): TurnOutput {
      turn++;
      facts = { ...facts, ...parseFacts(input.message) };
      if (turn === 1) {
        question = words(questionOf(input.message));
        // the whole message: the facts' words help find the rules that mention them
        return {
          message: 'Let me check the policy.',
          calls: [{ name: 'policy.search', args: { query: deslang(input.message), top_k: 20 } }],
        };
      }
      for (const r of input.results)
        if (r.error === null && r.name === 'policy.search')
          rules = [
            ...rules,
            ...(r.result as Array<{ rule_id: string; text: string }>)
              .map(readRule)
              .filter((x): x is ReadRule => x !== null && !rules.some((k) => k.id === x.id)),
          ];
      if (rules.length === 0)
        return { message: 'I could not find that policy.', calls: [], answer: { policy_answer: 'unknown' } };
      // the question's topic: the rules whose answer sentence shares most words with the question;
      // among them (or all, when none does) a rule the facts satisfy, else the best-ranked
      const best = Math.max(...rules.map((r) => topicScore(r.stem, question)));
      const onTopic = best > 0 ? rules.filter((r) => topicScore(r.stem, question) === best) : rules;
      const fits = onTopic.find((r) => r.conditions.every((c) => conditionHolds(c, facts)));
      const topic = rules.filter((r) => r.stem === (fits ?? onTopic[0]).stem);
      // many stated facts crowd the first search: search once more with the topic and the facts
      if (!focused && input.turnsLeft > 2) {
        focused = true;
        const query = `${topic[0].stem} ${Object.values(facts).join(' ')}`.replace(/_/g, ' ');
        return {
          message: 'Let me look up that policy.',
          calls: [{ name: 'policy.search', args: { query, top_k: 20 } }],
        };
      }
      const missing = [...new Set(topic.flatMap((r) => r.conditions.map((c) => c.field)))].filter(
        (f) => facts[f] === undefined,
      );
      if (!asked && missing.length > 0 && input.turnsLeft > 1) {
        asked = true;
        return {
          message: `To answer exactly, could you tell me ${missing.map((f) => ASK[f] ?? f).join(', ')}?`,
          calls: [],
        };
      }
      const applicable = topic
        .filter((r) => r.conditions.every((c) => conditionHolds(c, facts)))
        .sort((a, b) => b.conditions.length - a.conditions.length);
      const chosen = applicable[0] ?? topic[0];
      return {
        message: `According to our policy, ${chosen.stem}${chosen.answer}.`,
        calls: [],
        answer: { policy_answer: answerValue(chosen.answer) },
      };
    },
  };
}
