// What "pass" means per environment (SPEC §6 table, "pass (IsCorrect)"), and the failing
// evidence lines that explain a fail, so the replay can say why an episode failed at a glance.
import type { EnvId, EvidenceItem, RewardBreakdown, TerminationReason } from '@/server/engine/types';

export const PASS_RULES: Record<EnvId, string> = {
  PD: 'r_task ≥ 0.95',
  SUB: 'r_task ≥ 0.95',
  CART: 'the cart matches the wanted products, variants and quantities exactly (F1 = 1)',
  RETURN:
    'all three parts pass: the right order line (r_sel = 1), the return handled as the policy allows (r_ret = 1), and the replacement, when one is wanted, passes on its own (its r_task ≥ 0.95); r_task ≥ 0.95 alone is not enough',
  STATUS: 'both the order (r_oid = 1) and its status (r_stat = 1) are right',
  POLICY: 'r_task ≥ 0.95',
  BUNDLE: 'one right item per required category (F1 = 1) and within the budget',
  JOURNEY: 'every sub-task passes by its own rule',
};

/** Shown at most; the rest stay in the evidence lists of the breakdown. */
export const MAX_REASONS = 4;

export interface FailureReasons {
  rule: string;
  /** the episode ended without the agent answering (termination other than "answered") */
  ended: TerminationReason | null;
  /** a hard fail (SPEC §8): the reward is −1 whatever the components say */
  hardFail: RewardBreakdown['hardFail'];
  reasons: EvidenceItem[];
  /** failing lines not shown in `reasons` */
  more: number;
}

// A line that derives a component ("… → r_rank = -1") or a sub-task verdict ("… (fail)")
// explains more than a per-product line, so it comes first.
const derives = (e: EvidenceItem) => e.text.includes('→') || e.text.includes('(fail)');

export function failureReasons(
  envId: EnvId,
  b: RewardBreakdown,
  termination: TerminationReason | null,
): FailureReasons | null {
  if (b.isCorrect) return null;
  const failing = [...b.evidence.task, ...b.evidence.hall].filter((e) => !e.ok);
  const ordered = [...failing.filter(derives), ...failing.filter((e) => !derives(e))];
  return {
    rule: `${PASS_RULES[envId]}, and no recommended id the agent never retrieved (r_hall = 0)`,
    ended: termination !== null && termination !== 'answered' ? termination : null,
    hardFail: b.hardFail,
    reasons: ordered.slice(0, MAX_REASONS),
    more: Math.max(0, ordered.length - MAX_REASONS),
  };
}
