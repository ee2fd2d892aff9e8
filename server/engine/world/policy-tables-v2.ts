// The policy tables of engines v1 and v2, kept so their episodes replay exactly (version.ts).
// Before engine v3 (issue 31) return windows and return shipping fees had department tables of
// look-alike rules like every other topic, and the return tools did not read the rules.

import { TOPIC_TABLES, type TopicTable } from './policy-tables';

/** The three tables engine v3 removed, as they were. */
const RETURN_TABLES_V2: Readonly<Record<string, TopicTable>> = {
  return_window_days: {
    label: 'Return window',
    answers: [7, 10, 14, 21, 45, 60, 90, 100, 120, 180, 5, 365, 3, 28, 40, 75, 150],
  },
  return_shipping_fee: {
    label: 'Return shipping fee',
    answers: [
      2.99, 3.99, 4.99, 6.99, 7.99, 8.99, 9.99, 12.99, 1.99, 14.99, 19.99, 24.99, 10.99, 11.99, 16.99, 17.99, 29.99,
    ],
  },
  restocking_fee_percent: {
    label: 'Restocking fee',
    answers: [5, 10, 12, 18, 30, 35, 40, 8, 3, 50, 45, 22, 1, 2, 6, 28, 60],
  },
};

/** Engine v2's tables in their order (rule ids are numbered in it): the three sat before refund times. */
export const TOPIC_TABLES_V2: Readonly<Record<string, TopicTable>> = Object.fromEntries(
  Object.entries(TOPIC_TABLES).flatMap(([topic, table]) =>
    topic === 'refund_time'
      ? [...Object.entries(RETURN_TABLES_V2), [topic, table] as const]
      : [[topic, table] as const],
  ),
);

/** Hand-written restocking rules of v1/v2 (by membership tier, which the return tools cannot know). */
export const RULE_IDS_BEFORE_V3: ReadonlySet<string> = new Set(['RET-06', 'RET-07', 'RET-08', 'RET-09']);

/** Hand-written rules engine v3 added for the return tools' facts (not in v1/v2's rule book). */
export const RULE_IDS_SINCE_V3: ReadonlySet<string> = new Set([
  'RET-14',
  'RET-15',
  'RET-16',
  'RET-17',
  'RET-18',
  'RET-19',
  'RET-20',
  'RET-21',
  'RET-22',
  'RET-23',
  'RET-24',
]);
