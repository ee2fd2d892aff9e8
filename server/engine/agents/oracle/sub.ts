import type { SubGoal } from '../../envs/sub';
import type { Episode } from '../../episode';
import type { Action } from '../../types';
import { bestRecommendation, recommendationOracle } from './pd';

export function subOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as SubGoal;
  const best = bestRecommendation(episode, goal.rec);
  // name one that meets every constraint, so the customer confirms rather than objects
  const full = new Set(goal.rec.pool.filter((e) => e.s === 1).map((e) => e.id));
  const named = best.find((id) => full.has(id)) ?? best[0] ?? '';
  return recommendationOracle(episode, goal.rec, 'SUB', named);
}
