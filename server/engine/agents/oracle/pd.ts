import type { PdGoal } from '../../envs/pd';
import type { RecommendationSpec } from '../../envs/recommend';
import type { Episode } from '../../episode';
import type { Action } from '../../types';

/**
 * The best answer the agent could give now: the k most relevant pool items in
 * stock (as the tools show it), with at least one meeting every constraint.
 */
export function bestRecommendation(episode: Episode, spec: RecommendationSpec): string[] {
  const ideal = inStockRelevant(episode, spec, spec.k);
  if (spec.mode === 'discovery' && !ideal.some((e) => e.s === 1)) {
    const full = spec.pool.find((e) => e.s === 1 && e.rel > 0 && (episode.stockOf(e.id, null) ?? 0) > 0);
    if (full) ideal.splice(Math.max(0, ideal.length - 1), 1, full);
  }
  return ideal.map((e) => e.id);
}

/** The first n relevant pool items in stock (stock looked up lazily: it materialises products). */
function inStockRelevant(episode: Episode, spec: RecommendationSpec, n: number) {
  const out: RecommendationSpec['pool'] = [];
  for (const e of spec.pool) {
    if (out.length >= n) break;
    if (e.rel > 0 && (episode.stockOf(e.id, null) ?? 0) > 0) out.push(e);
  }
  return out;
}

/**
 * Two turns, one tool call each (fits B_tool = 1): first rerank a batch of the best
 * candidates so they are retrieved (Seen; this is the retrieval that may trigger
 * p_oos) and name one to the customer; then answer with the best in-stock list,
 * reranking any pick not yet retrieved in the same turn.
 */
export function recommendationOracle(episode: Episode, spec: RecommendationSpec, env: string, query: string, named: string): Action {
  const seen = episode.seenIds;
  const best = bestRecommendation(episode, spec);
  if (!best.some((id) => seen.has(id))) {
    const batch = inStockRelevant(episode, spec, 2 * spec.k + 2).map((e) => e.id);
    return {
      assistant_message: `Let me check a few options. ${named} looks like a good fit.`,
      tool_calls: [{ name: 'catalog.rerank', args: { query, candidate_product_ids: batch } }],
      answer: null,
    };
  }
  const missing = best.filter((id) => !seen.has(id));
  return {
    assistant_message: 'Here are my recommendations, best first.',
    tool_calls: missing.length ? [{ name: 'catalog.rerank', args: { query, candidate_product_ids: missing } }] : [],
    answer: { env, done: true, recommended_product_ids: best },
  };
}

export function pdOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as PdGoal;
  return recommendationOracle(episode, goal.rec, 'PD', goal.noun, goal.targetId);
}
