// Department tables of the policy knowledge base (issue 7, POLICY exploit ceilings): for every
// topic, look-alike rules that differ only in the department and in how many qualifiers hold,
// each with its own answer. With them a question's topic alone (or the topic plus a guess at
// the clause count) leaves at least six equally likely answers at every d ≥ 3, so an answer
// must use the stated facts. Plain data here; policy-kb.ts turns it into rules.

export type TableValue = string | number;
/** [field, op, value], as the hand-written rules of policy-kb.ts. */
export type TableClause = [string, 'eq' | 'lt' | 'lte' | 'gt' | 'gte', TableValue];

export interface TopicTable {
  /** Title stem, e.g. "Return window" → "Return window for office items". */
  label: string;
  /** Twenty answers (twelve chain rules, five twins, three v4 branches), distinct from each other and the hand-written rules. */
  answers: TableValue[];
}

/**
 * Rules per clause count a table adds for each topic: three departments at one and two
 * clauses, two at three to five. A department's rules form a chain (department, + q1,
 * + q1 + q2, …), so the most specific one that holds is always unique. Where the last qualifier
 * is numeric the rule has a twin with the comparison turned round ("$50.00 or more" / "under
 * $50.00"): the same words, a different answer, so only the stated number tells them apart.
 */
export const TABLE_SHAPE: readonly number[] = [3, 3, 2, 2, 2];

/** Qualifiers q1..q4 per policy category. Numeric ones share their words whether or not they hold. */
export const CATEGORY_QUALIFIERS: Readonly<Record<string, TableClause[]>> = {
  shipping: [
    ['order_total', 'gte', 50],
    ['membership_months', 'gte', 12],
    ['member_tier', 'eq', 'plus'],
    ['payment_method', 'eq', 'credit_card'],
  ],
  returns: [
    ['days_since_delivery', 'lte', 14],
    ['order_total', 'gte', 100],
    ['member_tier', 'eq', 'plus'],
    ['purchase_channel', 'eq', 'online'],
  ],
  pricing: [
    ['order_total', 'gte', 200],
    ['membership_months', 'gte', 6],
    ['purchase_channel', 'eq', 'online'],
    ['payment_method', 'eq', 'credit_card'],
  ],
  membership: [
    ['membership_months', 'gte', 6],
    ['order_total', 'gte', 75],
    ['purchase_channel', 'eq', 'online'],
    ['payment_method', 'eq', 'paypal'],
  ],
  warranty: [
    ['product_age_months', 'lt', 12],
    ['order_total', 'gte', 150],
    ['member_tier', 'eq', 'plus'],
    ['purchase_channel', 'eq', 'in_store'],
  ],
};

/** Departments in the order tables take them (those the topic's hand-written rules use are skipped). */
export const TABLE_DEPARTMENTS = ['office', 'tools', 'clothing', 'home_kitchen', 'grocery', 'furniture', 'electronics'];

const bd = (range: string) => `${range} business days`;
const payments = (n: number, kind = 'interest-free') => `${n} ${kind} payments`;

export const TOPIC_TABLES: Readonly<Record<string, TopicTable>> = {
  free_shipping_min: {
    label: 'Free shipping minimum',
    answers: [25, 45, 50, 59, 65, 89, 99, 120, 10, 15, 200, 250, 40, 55, 110, 175, 300, 79, 140, 225],
  },
  delivery_time: {
    label: 'Delivery time',
    answers: '1-2 2-4 3-5 4-6 6-8 7-10 8-12 5-10 3-4 2-5 10-14 15-25 4-8 6-10 9-15 12-20 20-30 3-6 5-9 14-18'
      .split(' ')
      .map(bd),
  },
  standard_shipping_fee: {
    label: 'Standard shipping fee',
    answers: [
      2.99, 3.99, 4.99, 6.99, 7.99, 8.99, 9.99, 12.99, 14.99, 1.99, 24.99, 29.99, 10.99, 11.99, 16.99, 21.99, 34.99,
      5.49, 13.49, 19.49,
    ],
  },
  expedited_shipping_fee: {
    label: 'Expedited shipping fee',
    answers: [
      9.99, 12.99, 17.99, 19.99, 21.99, 24.99, 4.99, 7.99, 29.99, 34.99, 39.99, 44.99, 10.99, 11.99, 15.99, 27.99,
      49.99, 14.49, 22.49, 32.49,
    ],
  },
  overnight_shipping_fee: {
    label: 'Overnight shipping fee',
    answers: [
      19.99, 29.99, 34.99, 39.99, 44.99, 49.99, 14.99, 9.99, 54.99, 59.99, 64.99, 69.99, 74.99, 79.99, 89.99, 99.99,
      12.99, 24.49, 42.49, 84.49,
    ],
  },
  refund_time: {
    label: 'Refund time',
    answers: '1-2 2-3 5-7 7-10 10-14 1 2-4 4-6 14-21 3-7 5-10 6-8 1-3 2-6 8-10 15-30 20-25 11-13 9-12 4-9'
      .split(' ')
      .map((r) => (r === '1' ? '1 business day' : bd(r))),
  },
  refund_method: {
    label: 'Refund method',
    answers: [
      'bank transfer',
      'check by mail',
      'PayPal balance',
      'loyalty points',
      'prepaid card',
      'store credit plus a 10% bonus',
      'gift card balance plus a 5% bonus',
      'original card within 48 hours',
      'exchange only',
      'merchandise credit',
      'account credit',
      'digital wallet credit',
      'cash at the service desk',
      'store gift card',
      'credit to the membership account',
      'refund to the bank account on file',
      'mailed prepaid card',
      'mailed check within 30 days',
      'store credit plus a 15% bonus',
      'refund to the PayPal account on file',
    ],
  },
  price_match_days: {
    label: 'Price match period',
    answers: [7, 10, 21, 45, 60, 90, 3, 5, 120, 180, 365, 1, 2, 4, 28, 40, 75, 50, 100, 150],
  },
  bulk_discount_percent: {
    label: 'Bulk discount',
    answers: [5, 7, 8, 12, 20, 25, 30, 3, 18, 22, 35, 40, 1, 2, 4, 28, 50, 6, 16, 45],
  },
  installment_plan: {
    label: 'Installment plan',
    answers: [
      ...[2, 3, 5, 8, 9, 10, 18, 24, 36].map((n) => payments(n)),
      ...[3, 6, 12, 4, 9, 18, 24, 36].map((n) => payments(n, 'monthly')),
      ...[2, 6].map((n) => payments(n, 'bi-weekly')),
      payments(4, 'bi-weekly'),
    ],
  },
  price_adjustment_max: {
    label: 'Price adjustment limit',
    answers: [10, 15, 20, 30, 40, 75, 150, 200, 250, 5, 35, 60, 45, 80, 120, 300, 500, 90, 175, 400],
  },
  annual_fee: {
    label: 'Annual membership fee',
    answers: [
      19.99, 29.99, 39.99, 59.99, 69.99, 79.99, 89.99, 119.99, 139.99, 9.99, 149.99, 199.99, 14.99, 24.99, 34.99, 44.99,
      129.99, 54.99, 64.99, 109.99,
    ],
  },
  cashback_percent: {
    label: 'Cash back',
    answers: [1, 2, 4, 7, 8, 10, 12, 1.5, 2.5, 3.5, 15, 20, 0.5, 9, 11, 18, 25, 4.5, 13, 16],
  },
  membership_refund: {
    label: 'Membership cancellation refund',
    answers: [
      'half refund',
      'partial refund',
      'prorated store credit',
      'store credit for the unused months',
      'full refund as store credit',
      'refund of the unused months',
      'refund minus a $10 fee',
      "credit toward next year's fee",
      'full refund within 30 days',
      'prorated refund minus a $5 fee',
      'full refund to the original card',
      "single month's refund",
      'refund minus a $20 fee',
      'quarter refund',
      'refund on a gift card',
      'refund of the last two months',
      'refund in bonus points',
      'prorated refund minus a $15 fee',
      'refund of the unused weeks',
      'half refund as store credit',
    ],
  },
  bonus_points: {
    label: 'Bonus points',
    answers: [50, 100, 150, 250, 300, 400, 600, 750, 1000, 25, 1500, 2000, 75, 125, 350, 800, 3000, 175, 450, 900],
  },
  warranty_months: {
    label: 'Warranty length',
    answers: [3, 6, 9, 18, 36, 48, 60, 1, 2, 30, 72, 120, 4, 8, 15, 42, 96, 27, 54, 84],
  },
  warranty_remedy: {
    label: 'Warranty remedy',
    answers: [
      'store credit',
      'full refund',
      'repair at an authorized center',
      'replacement or refund',
      'technician visit',
      'mail-in repair',
      'partial refund',
      'free repair and return shipping',
      'exchange for a newer model',
      'replacement within 5 days',
      'refund minus a restocking fee',
      'on-site repair',
      'loaner unit during repair',
      'prorated refund',
      'replacement parts only',
      'repair or store credit',
      'exchange in any store',
      'repair within 10 days',
      'replacement by courier',
      'store credit plus free repair',
    ],
  },
  extended_warranty_price: {
    label: 'Extended warranty price',
    answers: [
      4.99, 7.99, 12.99, 17.99, 24.99, 34.99, 44.99, 49.99, 59.99, 69.99, 2.99, 99.99, 10.99, 21.99, 54.99, 79.99,
      129.99, 8.99, 37.99, 64.99,
    ],
  },
};

/** A rule of the facts the RETURN world applies, as data (policy-kb.ts makes it a rule). */
export interface WorldRule {
  id: string;
  topic: 'return_window_days' | 'return_shipping_fee' | 'restocking_fee_percent';
  title: string;
  clauses: TableClause[];
  answer: number;
}

/**
 * The returns facts the RETURN world applies (SPEC §4): windows by department (electronics 15
 * days, clothing 30, furniture 30, grocery 0 = not returnable, otherwise 30), mail returns 5.99
 * (free for defective items), other methods free; restocking fees on items returned not
 * defective (engine v3, issue 31: return.initiate deducts them). policy.search finds them as rules and
 * world/returns.ts reads the same rules, so the policy text and the return tools agree (issue 31).
 * These topics have no department tables: a look-alike rule would contradict the tools.
 */
export const RETURN_WORLD_RULES: readonly WorldRule[] = [
  ...(
    [
      ['RET-01', 'electronics', 'Return window for electronics', 15],
      ['RET-02', 'clothing', 'Return window for clothing', 30],
      ['RET-03', 'grocery', 'Grocery items cannot be returned', 0],
      ['RET-14', 'furniture', 'Return window for furniture', 30],
      ['RET-15', 'home_kitchen', 'Return window for home & kitchen', 30],
      ['RET-16', 'office', 'Return window for office items', 30],
      ['RET-17', 'tools', 'Return window for tools', 30],
    ] as const
  ).map(([id, department, title, answer]): WorldRule => ({
    id,
    topic: 'return_window_days',
    title,
    clauses: [['department', 'eq', department]],
    answer,
  })),
  // no conditions: the least specific rule, for departments without a rule of their own
  { id: 'RET-18', topic: 'return_window_days', title: 'Return window for all other items', clauses: [], answer: 30 },
  {
    id: 'RET-04',
    topic: 'return_shipping_fee',
    title: 'Return shipping fee for mail returns',
    clauses: [['return_method', 'eq', 'mail']],
    answer: 5.99,
  },
  {
    id: 'RET-05',
    topic: 'return_shipping_fee',
    title: 'Free mail returns for defective items',
    clauses: [
      ['return_method', 'eq', 'mail'],
      ['item_condition', 'eq', 'defective'],
    ],
    answer: 0,
  },
  {
    id: 'RET-19',
    topic: 'return_shipping_fee',
    title: 'Free returns dropped off in store',
    clauses: [['return_method', 'eq', 'in_store']],
    answer: 0,
  },
  {
    id: 'RET-20',
    topic: 'return_shipping_fee',
    title: 'Free returns by courier pickup',
    clauses: [['return_method', 'eq', 'pickup']],
    answer: 0,
  },
  ...(
    [
      ['RET-21', 'No restocking fee on returns', [], 0],
      ['RET-22', 'Restocking fee for opened electronics', [['department', 'eq', 'electronics']], 15],
      [
        'RET-23',
        'Restocking fee for opened electronics orders of $500 or more',
        [
          ['department', 'eq', 'electronics'],
          ['order_total', 'gte', 500],
        ],
        20,
      ],
      [
        'RET-24',
        'Restocking fee for opened furniture returned by courier pickup',
        [
          ['department', 'eq', 'furniture'],
          ['return_method', 'eq', 'pickup'],
        ],
        25,
      ],
    ] as Array<[string, string, TableClause[], number]>
  ).map(([id, title, clauses, answer]): WorldRule => ({
    id,
    topic: 'restocking_fee_percent',
    title,
    // "opened": any return not of a defective item (return.initiate's reason code tells)
    clauses: clauses.length ? [...clauses, ['item_condition', 'eq', 'opened']] : [],
    answer,
  })),
];

/** Topics whose answers are the RETURN world's own facts: not asked as POLICY questions (no look-alikes). */
export const WORLD_TOPICS: readonly string[] = [...new Set(RETURN_WORLD_RULES.map((r) => r.topic))];
