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
