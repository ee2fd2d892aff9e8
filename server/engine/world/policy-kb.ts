// The store's policy knowledge base (SPEC §4): rules in five categories, each
// with conditions (clauses) and a numeric or categorical answer. Rules of one
// topic form a family; for given facts the matching rule with the most
// conditions applies (checked for every rule by policy-kb.test.ts), so a
// question built from one rule's conditions has exactly one right answer.

import { joinList as joinAnd, money } from '../envs/shared/phrasing';
import { ENGINE_VERSION, V4_RULES, REV3_RULES } from '../version';
import { CATEGORY_QUALIFIERS, RETURN_WORLD_RULES, TABLE_DEPARTMENTS, TABLE_SHAPE, TOPIC_TABLES } from './policy-tables';
import { RULE_IDS_BEFORE_V3, RULE_IDS_SINCE_V3, TOPIC_TABLES_V2 } from './policy-tables-v2';

export type PolicyCategory = 'returns' | 'shipping' | 'pricing' | 'membership' | 'warranty';
export const POLICY_CATEGORIES: readonly PolicyCategory[] = [
  'returns',
  'shipping',
  'pricing',
  'membership',
  'warranty',
];

export type PolicyField =
  | 'member_tier'
  | 'order_total'
  | 'department'
  | 'days_since_delivery'
  | 'item_condition'
  | 'destination'
  | 'shipping_speed'
  | 'payment_method'
  | 'purchase_channel'
  | 'return_method'
  | 'product_age_months'
  | 'membership_months';

export type ConditionOp = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';
export type FactValue = string | number;

export interface PolicyCondition {
  field: PolicyField;
  op: ConditionOp;
  value: FactValue;
}

export interface PolicyRule {
  rule_id: string;
  title: string;
  text: string;
  category: PolicyCategory;
  topic: string;
  conditions: PolicyCondition[];
  answer_type: 'numeric' | 'categorical';
  answer: number | string;
}

type Unit = 'usd' | 'percent' | 'days' | 'months' | 'points' | null;

interface TopicDef {
  /** What the customer asks. */
  question: string;
  unit: Unit;
  sentence: (answer: string) => string;
}

export const TOPICS: Readonly<Record<string, TopicDef>> = {
  free_shipping_min: {
    question: "What's the minimum order for free shipping?",
    unit: 'usd',
    sentence: (a) => `the free-shipping minimum is ${a}`,
  },
  standard_shipping_fee: {
    question: 'How much does standard shipping cost for my order?',
    unit: 'usd',
    sentence: (a) => `the standard shipping fee is ${a}`,
  },
  expedited_shipping_fee: {
    question: 'How much would expedited shipping cost?',
    unit: 'usd',
    sentence: (a) => `the expedited shipping fee is ${a}`,
  },
  overnight_shipping_fee: {
    question: 'What does overnight shipping cost?',
    unit: 'usd',
    sentence: (a) => `the overnight shipping fee is ${a}`,
  },
  delivery_time: { question: 'How long will delivery take?', unit: null, sentence: (a) => `delivery takes ${a}` },
  return_window_days: {
    question: 'How many days do I have to return it?',
    unit: 'days',
    sentence: (a) => `the return window is ${a} after delivery`,
  },
  return_shipping_fee: {
    question: 'How much does it cost me to send the return back?',
    unit: 'usd',
    sentence: (a) => `the return shipping fee is ${a}`,
  },
  restocking_fee_percent: {
    question: 'Is there a restocking fee, and how much is it?',
    unit: 'percent',
    sentence: (a) => `the restocking fee is ${a} of the item price`,
  },
  refund_time: {
    question: 'How long until I get my refund?',
    unit: null,
    sentence: (a) => `the refund arrives within ${a}`,
  },
  refund_method: {
    question: 'How will my refund be paid out?',
    unit: null,
    sentence: (a) => `the refund is issued as ${a}`,
  },
  price_match_days: {
    question: 'How long after buying can I still ask for a price match?',
    unit: 'days',
    sentence: (a) => `price matches are honoured for ${a} after purchase`,
  },
  bulk_discount_percent: {
    question: 'Is there a bulk discount on my order, and how big?',
    unit: 'percent',
    sentence: (a) => `the bulk discount is ${a}`,
  },
  installment_plan: {
    question: 'Can I pay in installments, and how?',
    unit: null,
    sentence: (a) => `the order can be paid in ${a}`,
  },
  price_adjustment_max: {
    question: "If the price drops, what's the most you'll refund me as a price adjustment?",
    unit: 'usd',
    sentence: (a) => `the maximum price adjustment is ${a}`,
  },
  annual_fee: {
    question: 'How much is the annual membership fee?',
    unit: 'usd',
    sentence: (a) => `the annual membership fee is ${a}`,
  },
  cashback_percent: {
    question: 'How much cash back do I earn on it?',
    unit: 'percent',
    sentence: (a) => `members earn ${a} cash back`,
  },
  membership_refund: {
    question: 'If I cancel my membership now, do I get my fee back?',
    unit: null,
    sentence: (a) => `cancelling gives a ${a}`,
  },
  bonus_points: {
    question: 'How many bonus points does this order earn me?',
    unit: 'points',
    sentence: (a) => `the order earns ${a}`,
  },
  warranty_months: {
    question: 'How long is the warranty?',
    unit: 'months',
    sentence: (a) => `the warranty lasts ${a}`,
  },
  warranty_remedy: {
    question: 'What will you do about it under the warranty?',
    unit: null,
    sentence: (a) => `the warranty remedy is ${a}`,
  },
  extended_warranty_price: {
    question: 'How much does the extended warranty cost?',
    unit: 'usd',
    sentence: (a) => `the extended warranty costs ${a}`,
  },
};

export const FIELD_VALUES: Readonly<Partial<Record<PolicyField, readonly string[]>>> = {
  member_tier: ['basic', 'plus', 'premium'],
  department: ['electronics', 'clothing', 'furniture', 'grocery', 'home_kitchen', 'office', 'tools'],
  item_condition: ['unopened', 'opened', 'defective'],
  destination: ['contiguous_us', 'alaska_hawaii', 'international'],
  shipping_speed: ['standard', 'expedited', 'overnight'],
  payment_method: ['credit_card', 'gift_card', 'paypal'],
  purchase_channel: ['online', 'in_store'],
  return_method: ['mail', 'in_store', 'pickup'],
};

export const NUMERIC_FIELDS: ReadonlySet<PolicyField> = new Set([
  'order_total',
  'days_since_delivery',
  'product_age_months',
  'membership_months',
]);

const DEPARTMENT_LABEL: Record<string, string> = {
  home_kitchen: 'home & kitchen',
  electronics: 'electronics',
  clothing: 'clothing',
  furniture: 'furniture',
  grocery: 'grocery',
  office: 'office',
  tools: 'tools',
};
const DESTINATION_LABEL: Record<string, string> = {
  contiguous_us: 'the contiguous US',
  alaska_hawaii: 'Alaska or Hawaii',
  international: 'international addresses',
};
const PAYMENT_LABEL: Record<string, string> = { credit_card: 'credit card', gift_card: 'gift card', paypal: 'PayPal' };

/** How a condition reads in a rule's text ("orders of $100.00 or more"). */
export function describeCondition(c: PolicyCondition): string {
  const v = c.value;
  const cmp = (unit: (x: FactValue) => string) =>
    ({
      lt: `under ${unit(v)}`,
      lte: `${unit(v)} or less`,
      gt: `over ${unit(v)}`,
      gte: `${unit(v)} or more`,
      eq: unit(v),
    })[c.op];
  switch (c.field) {
    case 'member_tier':
      return `${v} members`;
    case 'department':
      return `${DEPARTMENT_LABEL[v as string] ?? v} items`;
    case 'order_total':
      return `orders totalling ${cmp((x) => money(Number(x)))}`;
    case 'days_since_delivery':
      return `requests made ${cmp((x) => `${x} days`)} after delivery`;
    case 'item_condition':
      return `${v} items`;
    case 'destination':
      return `shipping to ${DESTINATION_LABEL[v as string]}`;
    case 'shipping_speed':
      return `${v} shipping`;
    case 'payment_method':
      return `orders paid by ${PAYMENT_LABEL[v as string]}`;
    case 'purchase_channel':
      return v === 'online' ? 'online purchases' : 'in-store purchases';
    case 'return_method':
      return v === 'mail'
        ? 'returns by mail'
        : v === 'pickup'
          ? 'returns by courier pickup'
          : 'returns dropped off in store';
    case 'product_age_months':
      return `products ${cmp((x) => `${x} months`)} old`;
    case 'membership_months':
      return `memberships held ${cmp((x) => `${x} months`)}`;
  }
}

function formatAnswer(topic: TopicDef, answer: number | string): string {
  if (typeof answer === 'string') return answer;
  switch (topic.unit) {
    case 'usd':
      return money(answer);
    case 'percent':
      return `${answer}%`;
    case 'days':
      return `${answer} days`;
    case 'months':
      return `${answer} months`;
    case 'points':
      return `${answer} points`;
    default:
      return String(answer);
  }
}

type Clause = [PolicyField, ConditionOp, FactValue];

function rule(
  rule_id: string,
  category: PolicyCategory,
  topic: string,
  title: string,
  clauses: Clause[],
  answer: number | string,
): PolicyRule {
  const def = TOPICS[topic];
  if (!def) throw new Error(`policy rule ${rule_id}: unknown topic ${topic}`);
  const conditions = clauses.map(([field, op, value]) => ({ field, op, value }));
  const sentence = def.sentence(formatAnswer(def, answer));
  const applies = conditions.length ? joinAnd(conditions.map(describeCondition)) : 'items no more specific rule covers';
  const text = `Applies to ${applies}: ${sentence}.`;
  return {
    rule_id,
    title,
    text,
    category,
    topic,
    conditions,
    answer_type: typeof answer === 'number' ? 'numeric' : 'categorical',
    answer,
  };
}

/** The hand-written rules (SPEC §4); the department tables below add look-alikes to every topic. */
const HAND_RULES: readonly PolicyRule[] = [
  // shipping
  rule(
    'SHP-01',
    'shipping',
    'free_shipping_min',
    'Free shipping minimum for basic members',
    [['member_tier', 'eq', 'basic']],
    35,
  ),
  rule(
    'SHP-02',
    'shipping',
    'free_shipping_min',
    'Free shipping for premium members',
    [['member_tier', 'eq', 'premium']],
    0,
  ),
  rule(
    'SHP-03',
    'shipping',
    'free_shipping_min',
    'Free shipping minimum to Alaska and Hawaii, basic members',
    [
      ['member_tier', 'eq', 'basic'],
      ['destination', 'eq', 'alaska_hawaii'],
    ],
    75,
  ),
  rule(
    'SHP-04',
    'shipping',
    'free_shipping_min',
    'Free shipping minimum for basic members buying furniture',
    [
      ['member_tier', 'eq', 'basic'],
      ['department', 'eq', 'furniture'],
      ['destination', 'eq', 'contiguous_us'],
    ],
    149,
  ),
  rule(
    'SHP-05',
    'shipping',
    'delivery_time',
    'Standard delivery time',
    [['shipping_speed', 'eq', 'standard']],
    '5-7 business days',
  ),
  rule(
    'SHP-06',
    'shipping',
    'delivery_time',
    'Expedited delivery time',
    [['shipping_speed', 'eq', 'expedited']],
    '2-3 business days',
  ),
  rule(
    'SHP-07',
    'shipping',
    'delivery_time',
    'Overnight delivery time',
    [
      ['shipping_speed', 'eq', 'overnight'],
      ['destination', 'eq', 'contiguous_us'],
    ],
    '1 business day',
  ),
  rule(
    'SHP-08',
    'shipping',
    'delivery_time',
    'International standard delivery time',
    [
      ['shipping_speed', 'eq', 'standard'],
      ['destination', 'eq', 'international'],
    ],
    '10-20 business days',
  ),
  rule(
    'SHP-09',
    'shipping',
    'delivery_time',
    'Furniture delivery time to Alaska and Hawaii',
    [
      ['shipping_speed', 'eq', 'standard'],
      ['destination', 'eq', 'alaska_hawaii'],
      ['department', 'eq', 'furniture'],
    ],
    '14-21 business days',
  ),
  rule(
    'SHP-10',
    'shipping',
    'standard_shipping_fee',
    'Standard shipping fee below the free-shipping minimum',
    [
      ['member_tier', 'eq', 'basic'],
      ['order_total', 'lt', 35],
    ],
    5.99,
  ),
  rule(
    'SHP-11',
    'shipping',
    'standard_shipping_fee',
    'International standard shipping fee for small orders',
    [
      ['member_tier', 'eq', 'basic'],
      ['order_total', 'lt', 35],
      ['destination', 'eq', 'international'],
    ],
    19.99,
  ),
  rule(
    'SHP-12',
    'shipping',
    'expedited_shipping_fee',
    'Expedited shipping fee, basic members, small orders',
    [
      ['shipping_speed', 'eq', 'expedited'],
      ['member_tier', 'eq', 'basic'],
      ['destination', 'eq', 'contiguous_us'],
      ['order_total', 'lt', 100],
    ],
    14.99,
  ),
  rule(
    'SHP-13',
    'shipping',
    'overnight_shipping_fee',
    'Overnight electronics shipping for premium members',
    [
      ['shipping_speed', 'eq', 'overnight'],
      ['member_tier', 'eq', 'premium'],
      ['destination', 'eq', 'contiguous_us'],
      ['order_total', 'gte', 50],
      ['department', 'eq', 'electronics'],
    ],
    0,
  ),
  rule(
    'SHP-14',
    'shipping',
    'overnight_shipping_fee',
    'Overnight electronics shipping for basic members, small orders',
    [
      ['shipping_speed', 'eq', 'overnight'],
      ['member_tier', 'eq', 'basic'],
      ['destination', 'eq', 'contiguous_us'],
      ['order_total', 'lt', 50],
      ['department', 'eq', 'electronics'],
    ],
    24.99,
  ),
  // returns: windows and return shipping fees are the RETURN world's facts (policy-tables.ts)
  ...RETURN_WORLD_RULES.map((r) => rule(r.id, 'returns', r.topic, r.title, r.clauses as Clause[], r.answer)),
  rule(
    'RET-06',
    'returns',
    'restocking_fee_percent',
    'Restocking fee for opened electronics',
    [
      ['department', 'eq', 'electronics'],
      ['item_condition', 'eq', 'opened'],
    ],
    15,
  ),
  rule(
    'RET-07',
    'returns',
    'restocking_fee_percent',
    'No restocking fee on opened electronics for premium members',
    [
      ['department', 'eq', 'electronics'],
      ['item_condition', 'eq', 'opened'],
      ['member_tier', 'eq', 'premium'],
    ],
    0,
  ),
  rule(
    'RET-08',
    'returns',
    'restocking_fee_percent',
    'Restocking fee for large opened electronics orders, basic members',
    [
      ['department', 'eq', 'electronics'],
      ['item_condition', 'eq', 'opened'],
      ['member_tier', 'eq', 'basic'],
      ['order_total', 'gte', 500],
    ],
    20,
  ),
  rule(
    'RET-09',
    'returns',
    'restocking_fee_percent',
    'Restocking fee for late furniture pickups, basic members',
    [
      ['department', 'eq', 'furniture'],
      ['item_condition', 'eq', 'opened'],
      ['days_since_delivery', 'gt', 14],
      ['member_tier', 'eq', 'basic'],
      ['return_method', 'eq', 'pickup'],
    ],
    25,
  ),
  rule(
    'RET-10',
    'returns',
    'refund_time',
    'Refund time for credit card payments',
    [['payment_method', 'eq', 'credit_card']],
    '3-5 business days',
  ),
  rule(
    'RET-11',
    'returns',
    'refund_method',
    'Refunds for in-store card purchases returned in store',
    [
      ['purchase_channel', 'eq', 'in_store'],
      ['payment_method', 'eq', 'credit_card'],
      ['return_method', 'eq', 'in_store'],
    ],
    'original payment method',
  ),
  rule(
    'RET-12',
    'returns',
    'refund_method',
    'Refunds for online gift card purchases returned by mail',
    [
      ['purchase_channel', 'eq', 'online'],
      ['payment_method', 'eq', 'gift_card'],
      ['return_method', 'eq', 'mail'],
      ['item_condition', 'eq', 'unopened'],
    ],
    'gift card balance',
  ),
  rule(
    'RET-13',
    'returns',
    'refund_method',
    'Refunds for late approved online returns',
    [
      ['purchase_channel', 'eq', 'online'],
      ['payment_method', 'eq', 'credit_card'],
      ['return_method', 'eq', 'mail'],
      ['days_since_delivery', 'gt', 30],
    ],
    'store credit',
  ),
  // pricing
  rule(
    'PRC-01',
    'pricing',
    'price_match_days',
    'Price match window for online purchases',
    [['purchase_channel', 'eq', 'online']],
    14,
  ),
  rule(
    'PRC-02',
    'pricing',
    'price_match_days',
    'Extended price match window for premium members',
    [
      ['purchase_channel', 'eq', 'online'],
      ['member_tier', 'eq', 'premium'],
    ],
    30,
  ),
  rule(
    'PRC-03',
    'pricing',
    'bulk_discount_percent',
    'Bulk discount on office supplies',
    [
      ['department', 'eq', 'office'],
      ['order_total', 'gte', 500],
    ],
    10,
  ),
  rule(
    'PRC-04',
    'pricing',
    'bulk_discount_percent',
    'Bulk discount on large office orders for plus members',
    [
      ['department', 'eq', 'office'],
      ['order_total', 'gte', 1000],
      ['member_tier', 'eq', 'plus'],
    ],
    15,
  ),
  rule(
    'PRC-05',
    'pricing',
    'installment_plan',
    'Installments on card orders',
    [
      ['payment_method', 'eq', 'credit_card'],
      ['order_total', 'gte', 200],
    ],
    '4 interest-free payments',
  ),
  rule(
    'PRC-06',
    'pricing',
    'installment_plan',
    'Long installment plans for premium members',
    [
      ['payment_method', 'eq', 'credit_card'],
      ['order_total', 'gte', 1000],
      ['member_tier', 'eq', 'premium'],
    ],
    '12 interest-free payments',
  ),
  rule(
    'PRC-07',
    'pricing',
    'installment_plan',
    'Installments with PayPal for plus members',
    [
      ['payment_method', 'eq', 'paypal'],
      ['order_total', 'gte', 200],
      ['purchase_channel', 'eq', 'online'],
      ['member_tier', 'eq', 'plus'],
    ],
    '6 interest-free payments',
  ),
  rule(
    'PRC-08',
    'pricing',
    'price_adjustment_max',
    'Price adjustment cap on home & kitchen, plus members',
    [
      ['member_tier', 'eq', 'plus'],
      ['purchase_channel', 'eq', 'online'],
      ['department', 'eq', 'home_kitchen'],
      ['order_total', 'gte', 50],
      ['payment_method', 'eq', 'credit_card'],
    ],
    50,
  ),
  rule(
    'PRC-09',
    'pricing',
    'price_adjustment_max',
    'Price adjustment cap on electronics paid with PayPal, basic members',
    [
      ['member_tier', 'eq', 'basic'],
      ['purchase_channel', 'eq', 'online'],
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 100],
      ['payment_method', 'eq', 'paypal'],
    ],
    25,
  ),
  rule(
    'PRC-10',
    'pricing',
    'price_adjustment_max',
    'Price adjustment cap on electronics paid by card, premium members',
    [
      ['member_tier', 'eq', 'premium'],
      ['purchase_channel', 'eq', 'online'],
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 100],
      ['payment_method', 'eq', 'credit_card'],
    ],
    100,
  ),
  // membership
  rule(
    'MEM-01',
    'membership',
    'annual_fee',
    'Premium membership annual fee',
    [['member_tier', 'eq', 'premium']],
    99.99,
  ),
  rule('MEM-02', 'membership', 'annual_fee', 'Plus membership annual fee', [['member_tier', 'eq', 'plus']], 49.99),
  rule(
    'MEM-03',
    'membership',
    'cashback_percent',
    'Cash back for premium members',
    [['member_tier', 'eq', 'premium']],
    5,
  ),
  rule(
    'MEM-04',
    'membership',
    'cashback_percent',
    'Grocery cash back on card for premium members',
    [
      ['member_tier', 'eq', 'premium'],
      ['payment_method', 'eq', 'credit_card'],
      ['department', 'eq', 'grocery'],
    ],
    6,
  ),
  rule(
    'MEM-05',
    'membership',
    'cashback_percent',
    'Electronics cash back on larger card orders, plus members',
    [
      ['member_tier', 'eq', 'plus'],
      ['payment_method', 'eq', 'credit_card'],
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 250],
    ],
    3,
  ),
  rule(
    'MEM-06',
    'membership',
    'membership_refund',
    'Cancelling premium in the first month',
    [
      ['member_tier', 'eq', 'premium'],
      ['membership_months', 'lt', 1],
    ],
    'full refund',
  ),
  rule(
    'MEM-07',
    'membership',
    'membership_refund',
    'Cancelling premium after the first month',
    [
      ['member_tier', 'eq', 'premium'],
      ['membership_months', 'gte', 1],
    ],
    'prorated refund',
  ),
  rule(
    'MEM-08',
    'membership',
    'bonus_points',
    'Loyalty bonus on electronics for long-time premium members',
    [
      ['member_tier', 'eq', 'premium'],
      ['membership_months', 'gte', 12],
      ['order_total', 'gte', 100],
      ['purchase_channel', 'eq', 'online'],
      ['department', 'eq', 'electronics'],
    ],
    500,
  ),
  rule(
    'MEM-09',
    'membership',
    'bonus_points',
    'Loyalty bonus on clothing for long-time plus members',
    [
      ['member_tier', 'eq', 'plus'],
      ['membership_months', 'gte', 12],
      ['order_total', 'gte', 100],
      ['purchase_channel', 'eq', 'online'],
      ['department', 'eq', 'clothing'],
    ],
    200,
  ),
  // warranty
  rule('WAR-01', 'warranty', 'warranty_months', 'Electronics warranty', [['department', 'eq', 'electronics']], 12),
  rule('WAR-02', 'warranty', 'warranty_months', 'Furniture warranty', [['department', 'eq', 'furniture']], 24),
  rule(
    'WAR-03',
    'warranty',
    'warranty_months',
    'Electronics warranty for premium members',
    [
      ['department', 'eq', 'electronics'],
      ['member_tier', 'eq', 'premium'],
    ],
    24,
  ),
  rule(
    'WAR-04',
    'warranty',
    'warranty_remedy',
    'Defective electronics',
    [
      ['department', 'eq', 'electronics'],
      ['item_condition', 'eq', 'defective'],
    ],
    'free replacement',
  ),
  rule(
    'WAR-05',
    'warranty',
    'warranty_remedy',
    'Defective electronics older than six months',
    [
      ['department', 'eq', 'electronics'],
      ['item_condition', 'eq', 'defective'],
      ['product_age_months', 'gte', 6],
    ],
    'free repair',
  ),
  rule(
    'WAR-06',
    'warranty',
    'warranty_remedy',
    'Defective furniture bought online',
    [
      ['department', 'eq', 'furniture'],
      ['item_condition', 'eq', 'defective'],
      ['product_age_months', 'lt', 24],
      ['purchase_channel', 'eq', 'online'],
    ],
    'replacement parts shipped free',
  ),
  rule(
    'WAR-07',
    'warranty',
    'warranty_remedy',
    'Defective tools bought in store by plus members',
    [
      ['department', 'eq', 'tools'],
      ['item_condition', 'eq', 'defective'],
      ['product_age_months', 'lt', 36],
      ['member_tier', 'eq', 'plus'],
      ['purchase_channel', 'eq', 'in_store'],
    ],
    'in-store exchange',
  ),
  rule(
    'WAR-08',
    'warranty',
    'extended_warranty_price',
    'Extended warranty for electronics under $100',
    [
      ['department', 'eq', 'electronics'],
      ['order_total', 'lt', 100],
    ],
    9.99,
  ),
  rule(
    'WAR-09',
    'warranty',
    'extended_warranty_price',
    'Extended warranty for electronics of $100 or more',
    [
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 100],
    ],
    29.99,
  ),
  rule(
    'WAR-10',
    'warranty',
    'extended_warranty_price',
    'Extended warranty discount for premium members',
    [
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 100],
      ['member_tier', 'eq', 'premium'],
    ],
    19.99,
  ),
  rule(
    'WAR-11',
    'warranty',
    'extended_warranty_price',
    'Extended warranty for premium members paying by card',
    [
      ['department', 'eq', 'electronics'],
      ['order_total', 'gte', 100],
      ['member_tier', 'eq', 'premium'],
      ['payment_method', 'eq', 'credit_card'],
    ],
    14.99,
  ),
  rule(
    'WAR-12',
    'warranty',
    'extended_warranty_price',
    'Extended furniture warranty for plus members',
    [
      ['department', 'eq', 'furniture'],
      ['order_total', 'gte', 500],
      ['member_tier', 'eq', 'plus'],
      ['purchase_channel', 'eq', 'online'],
      ['payment_method', 'eq', 'credit_card'],
    ],
    39.99,
  ),
];

const OPPOSITE: Record<ConditionOp, ConditionOp> = { lt: 'gte', gte: 'lt', lte: 'gt', gt: 'lte', eq: 'eq' };

const ID_PREFIX: Record<PolicyCategory, string> = {
  shipping: 'SHP',
  returns: 'RET',
  pricing: 'PRC',
  membership: 'MEM',
  warranty: 'WAR',
};

/**
 * The department tables (policy-tables.ts) as rules: per topic, chains department → + q1 →
 * + q1 + q2 … over departments its hand-written rules do not use, TABLE_SHAPE rules per clause
 * count, answers in table order. Ids continue each category's numbering from 101.
 */
function tableRules(hand: readonly PolicyRule[], tables: typeof TOPIC_TABLES, branches = false): PolicyRule[] {
  const out: PolicyRule[] = [];
  const next: Partial<Record<PolicyCategory, number>> = {};
  const later: Array<() => void> = [];
  for (const [topic, table] of Object.entries(tables)) {
    const category = hand.find((r) => r.topic === topic)!.category;
    const taken = new Set(
      hand
        .filter((r) => r.topic === topic)
        .flatMap((r) => r.conditions.filter((c) => c.field === 'department').map((c) => String(c.value))),
    );
    const departments = TABLE_DEPARTMENTS.filter((d) => !taken.has(d));
    const qualifiers = CATEGORY_QUALIFIERS[category] as Clause[];
    let answer = 0;
    const add = (clauses: Clause[], i = answer++) => {
      const n = (next[category] = (next[category] ?? 100) + 1);
      const conditions = clauses.map(([field, op, value]) => ({ field, op, value }));
      const title = `${table.label} for ${joinAnd(conditions.map(describeCondition))}`;
      out.push(rule(`${ID_PREFIX[category]}-${n}`, category, topic, title, clauses, table.answers[i]));
    };
    TABLE_SHAPE.forEach((count, level) => {
      for (const department of departments.slice(0, count))
        add([['department', 'eq', department], ...qualifiers.slice(0, level)]);
    });
    // the twins: the same chains with a numeric last qualifier turned round
    TABLE_SHAPE.forEach((count, level) => {
      const last = qualifiers[level - 1];
      if (!last || !NUMERIC_FIELDS.has(last[0])) return;
      for (const department of departments.slice(0, count))
        add([
          ['department', 'eq', department],
          ...qualifiers.slice(0, level - 1),
          [last[0], OPPOSITE[last[1]], last[2]],
        ]);
    });
    // engine v4: each two-clause department gets a branch with its second qualifier alone (after
    // every table, so older ids stay): stated as a fact that fails it, that qualifier reads the
    // same, so the department and the facts' words no longer name the one-clause rule
    if (branches)
      departments
        .slice(0, TABLE_SHAPE[1])
        .forEach((department, i) => later.push(() => add([['department', 'eq', department], qualifiers[1]], 17 + i)));
  }
  later.forEach((f) => f());
  return out;
}

/** A rule book: its rules, grouped by topic and by id once (generation asks dozens of times per episode). */
export interface PolicyBook {
  readonly rules: readonly PolicyRule[];
  /** The rules of each topic, in rule order (shared: do not change them). */
  readonly byTopic: ReadonlyMap<string, readonly PolicyRule[]>;
  readonly byId: ReadonlyMap<string, PolicyRule>;
}

function book(rules: readonly PolicyRule[]): PolicyBook {
  const byTopic = new Map<string, PolicyRule[]>();
  for (const rule of rules) byTopic.set(rule.topic, [...(byTopic.get(rule.topic) ?? []), rule]);
  const byId = new Map<string, PolicyRule>();
  for (const rule of rules) if (!byId.has(rule.rule_id)) byId.set(rule.rule_id, rule);
  return { rules, byTopic, byId };
}

const HAND_RULES_V3 = HAND_RULES.filter((r) => !RULE_IDS_BEFORE_V3.has(r.rule_id));
const BOOK = book([...HAND_RULES_V3, ...tableRules(HAND_RULES_V3, TOPIC_TABLES, true)]);
const BOOK_V3 = book([...HAND_RULES_V3, ...tableRules(HAND_RULES_V3, TOPIC_TABLES)]);
// engines v1/v2 (before issue 31): look-alike tables for return windows and fees, no RET-14..20
const HAND_RULES_V2 = HAND_RULES.filter((r) => !RULE_IDS_SINCE_V3.has(r.rule_id));
const BOOK_V2 = book([...HAND_RULES_V2, ...tableRules(HAND_RULES_V2, TOPIC_TABLES_V2)]);

/** The rule book an episode of `engineVersion` plays with (older episodes replay with theirs). */
export const policyBook = (engineVersion = ENGINE_VERSION): PolicyBook =>
  engineVersion >= V4_RULES ? BOOK : engineVersion >= REV3_RULES ? BOOK_V3 : BOOK_V2;

/** The current rule book's rules. */
export const POLICY_RULES: readonly PolicyRule[] = BOOK.rules;

/** The rules of a topic, in rule order (shared: do not change it). */
export const rulesOfTopic = (topic: string, engineVersion?: number): readonly PolicyRule[] =>
  policyBook(engineVersion).byTopic.get(topic) ?? [];

export function getPolicyRule(ruleId: string, engineVersion?: number): PolicyRule | undefined {
  return policyBook(engineVersion).byId.get(ruleId);
}

export type Facts = Partial<Record<PolicyField, FactValue>>;

/** Generic over the field names: the heuristic agent checks rules it read from text with it too. */
export function conditionHolds<F extends string>(
  c: { field: F; op: ConditionOp; value: FactValue },
  facts: Partial<Record<F, FactValue>>,
): boolean {
  const v = facts[c.field];
  if (v === undefined) return false;
  if (c.op === 'eq') return String(v) === String(c.value);
  const x = Number(v);
  const y = Number(c.value);
  return c.op === 'lt' ? x < y : c.op === 'lte' ? x <= y : c.op === 'gt' ? x > y : x >= y;
}

/** The rules of a topic that apply to the facts, most specific first; the first one decides (ties would be ambiguous). */
export function applicableRules(topic: string, facts: Facts, engineVersion?: number): PolicyRule[] {
  return rulesOfTopic(topic, engineVersion)
    .filter((r) => r.conditions.every((c) => conditionHolds(c, facts)))
    .sort((a, b) => b.conditions.length - a.conditions.length);
}
