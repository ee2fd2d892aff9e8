// The reward parts under the names SPEC §8 uses, in reading order (re-score panel, compare view).
import type { RewardParts } from '@/server/inspector/rescore';

export const PART_LABELS: Array<[keyof RewardParts, string]> = [
  ['total', 'reward'],
  ['rTask', 'r_task'],
  ['rEff', 'r_eff'],
  ['rHall', 'r_hall'],
  ['isCorrect', 'pass'],
  ['turns', 'T'],
  ['tUser', 'T_user'],
  ['tEff', 'T_eff'],
];

export const partLabel = (k: keyof RewardParts) => PART_LABELS.find(([p]) => p === k)?.[1] ?? k;

/**
 * The components named where an import's recorded reward and this engine's differ: the parts
 * that explain it (r_task, r_eff, r_hall, T…), not the total or pass that follow from them.
 */
export function differingNames(parts: readonly string[]): string[] {
  const named = parts.filter((p) => p !== 'total' && p !== 'isCorrect');
  return (named.length ? named : parts).map((p) => partLabel(p as keyof RewardParts));
}

/** What each number of the breakdown means (SPEC §8), shown on hover where the number is. */
export const PART_MEANINGS: Record<string, string> = {
  r_task: 'task score from the hidden goal, −1 to 1 (weight 0.75)',
  r_eff: 'efficiency, −1 to 1: 1 − 2·(T_eff − 1)/(T_ref − 1) (weight 0.15)',
  r_hall: 'hallucination penalty, −1 to 0: minus the share of recommended ids the agent never retrieved (weight 0.10)',
  T: 'agent turns taken',
  T_user: 'turns the customer caused (confirm, or clarify with no successful tool call): not counted',
  'T_eff / T_ref': 'turns counted (T − T_user, at least 1) / the turns a good agent needs (4 per sub-task)',
  'T_eff / T_max': 'turns counted (T − T_user, at least 1) / the turn budget (reward revision 1)',
};

/** "r_eff differs", "r_eff, T_eff differ": the differing parts as a short phrase. */
export function differsPhrase(parts: readonly string[]): string {
  const names = differingNames(parts);
  return `${names.join(', ')} differ${names.length === 1 ? 's' : ''}`;
}
