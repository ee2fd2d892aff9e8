// The failing evidence lines that explain a fail, beside the env's pass rule (which the engine
// states: EnvInfo.passRule), so the replay can say why an episode failed at a glance.
import { decisiveFirst } from '@/server/engine/evidence';
import type { EvidenceItem, RewardBreakdown, TerminationReason } from '@/server/engine/types';

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

export function failureReasons(
  /** the engine's pass rule for the episode's env (listEnvs()'s passRule) */
  passRule: string,
  b: RewardBreakdown,
  termination: TerminationReason | null,
): FailureReasons | null {
  if (b.isCorrect) return null;
  // The decisive line first (round 11): the env's verdict, then the components that failed, then
  // the items; nested lines (RETURN's replacement, JOURNEY's sub-tasks) after their parents'.
  const ordered = decisiveFirst([...b.evidence.task, ...b.evidence.hall].filter((e) => !e.ok));
  return {
    rule: passRule,
    ended: termination !== null && termination !== 'answered' ? termination : null,
    hardFail: b.hardFail,
    reasons: ordered.slice(0, MAX_REASONS),
    more: Math.max(0, ordered.length - MAX_REASONS),
  };
}
