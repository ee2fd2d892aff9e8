import type { PdGoal } from '../../envs/pd';
import type { RecommendationSpec } from '../../envs/shared/recommend';
import type { Episode } from '../../episode';
import type { Action, ToolCall } from '../../types';

/**
 * The best answer the agent could give now (recommend.ts, revision 2): the k most relevant
 * in-stock pool items among those with the highest satisfaction any in-stock item reaches.
 */
export function bestRecommendation(episode: Episode, spec: RecommendationSpec): string[] {
  return wantedNow(episode, spec, spec.k).map((e) => e.id);
}

const inStock = (episode: Episode, id: string) => (episode.stockOf(id, null) ?? 0) > 0;

/** The first n wanted items (stock looked up lazily: it materialises products). */
function wantedNow(episode: Episode, spec: RecommendationSpec, n: number) {
  const relevant = spec.pool.filter((e) => e.rel > 0);
  const sMax = [...relevant].sort((a, b) => b.s - a.s).find((e) => inStock(episode, e.id))?.s ?? 0;
  const out: RecommendationSpec['pool'] = [];
  for (const e of relevant) {
    if (out.length >= n) break;
    if (e.s >= sMax - 1e-12 && inStock(episode, e.id)) out.push(e);
  }
  return out;
}

/** get_product calls for ids not yet retrieved, within this turn's tool budget (rerank does not retrieve, issue 7.5). */
export function fetchUnseen(episode: Episode, ids: readonly string[], budget = episode.axes.B_tool): ToolCall[] {
  return ids
    .filter((id) => !episode.seenIds.has(id))
    .slice(0, budget)
    .map((id) => ({ name: 'catalog.get_product', args: { product_id: id } }));
}

/**
 * Retrieve each pick with catalog.get_product, B_tool per turn (a retrieval may trigger
 * p_oos, after which the best list changes), naming one to the customer; answer in the
 * turn whose calls retrieve the last pick. k ≤ B_tool·(T_max − 1) at every d.
 */
export function recommendationOracle(episode: Episode, spec: RecommendationSpec, env: string, named: string): Action {
  const best = bestRecommendation(episode, spec);
  const unseen = best.filter((id) => !episode.seenIds.has(id));
  const calls = fetchUnseen(episode, best);
  if (unseen.length > calls.length)
    return {
      assistant_message: `Let me check a few options. ${named} looks like a good fit.`,
      tool_calls: calls,
      answer: null,
    };
  return {
    assistant_message: 'Here are my recommendations, best first.',
    tool_calls: calls,
    answer: { env, done: true, recommended_product_ids: best },
  };
}

export function pdOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as PdGoal;
  return recommendationOracle(episode, goal.rec, 'PD', goal.targetId);
}
