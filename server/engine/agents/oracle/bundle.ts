import type { BundleGoal } from '../../envs/bundle';
import type { Episode } from '../../episode';
import type { Action } from '../../types';
import { fetchUnseen } from './pd';

/** Per required category, the cheapest anchor still in stock (their sum is within the budget by construction). */
function picks(episode: Episode, goal: BundleGoal): string[] {
  return goal.categories.flatMap((c) => {
    const id = goal.anchors[c].find((a) => (episode.stockOf(a, null) ?? 0) > 0);
    return id ? [id] : [];
  });
}

/** Retrieve the picks with catalog.get_product, B_tool per turn; answer in the turn that retrieves the last one. */
export function bundleOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as BundleGoal;
  const chosen = picks(episode, goal);
  const unseen = chosen.filter((id) => !episode.seenIds.has(id));
  const calls = fetchUnseen(episode, chosen);
  if (unseen.length > calls.length)
    return { assistant_message: `How about this set: ${chosen.join(', ')}?`, tool_calls: calls, answer: null };
  return {
    assistant_message: 'Here is your bundle, one item per category.',
    tool_calls: calls,
    answer: { env: 'BUNDLE', done: true, recommended_product_ids: chosen },
  };
}
