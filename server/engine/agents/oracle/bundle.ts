import type { BundleGoal } from '../../envs/bundle';
import type { Episode } from '../../episode';
import type { Action } from '../../types';

/** Per required category, the cheapest anchor still in stock (their sum is within the budget by construction). */
function picks(episode: Episode, goal: BundleGoal): string[] {
  return goal.categories.flatMap((c) => {
    const id = goal.anchors[c].find((a) => (episode.stockOf(a, null) ?? 0) > 0);
    return id ? [id] : [];
  });
}

/**
 * Two turns, one tool call each: rerank the picks so they are retrieved (Seen; this
 * may trigger p_oos) and name them; then answer with the picks still in stock,
 * retrieving any replacement in the same turn.
 */
export function bundleOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as BundleGoal;
  const seen = episode.seenIds;
  const chosen = picks(episode, goal);
  const rerank = (ids: string[]) => ({ name: 'catalog.rerank', args: { query: 'bundle', candidate_product_ids: ids } });
  if (!chosen.some((id) => seen.has(id))) {
    return {
      assistant_message: `How about this set: ${chosen.join(', ')}?`,
      tool_calls: [rerank(chosen)],
      answer: null,
    };
  }
  const missing = chosen.filter((id) => !seen.has(id));
  return {
    assistant_message: 'Here is your bundle, one item per category.',
    tool_calls: missing.length ? [rerank(missing)] : [],
    answer: { env: 'BUNDLE', done: true, recommended_product_ids: chosen },
  };
}
