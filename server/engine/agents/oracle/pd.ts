import type { PdGoal } from '../../envs/pd';
import type { RecommendationSpec } from '../../envs/shared/recommend';
import type { Episode } from '../../episode';
import type { Action } from '../../types';

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

/** The first n relevant pool items in stock, wanted ones first (the batch the oracle retrieves). */
function inStockRelevant(episode: Episode, spec: RecommendationSpec, n: number) {
  const wanted = wantedNow(episode, spec, n);
  const ids = new Set(wanted.map((e) => e.id));
  for (const e of spec.pool) {
    if (wanted.length >= n) break;
    if (e.rel > 0 && !ids.has(e.id) && inStock(episode, e.id)) wanted.push(e);
  }
  return wanted;
}

/**
 * Two turns, one tool call each (fits B_tool = 1): first rerank a batch of the best
 * candidates so they are retrieved (Seen; this is the retrieval that may trigger
 * p_oos) and name one to the customer; then answer with the best in-stock list,
 * reranking any pick not yet retrieved in the same turn.
 */
export function recommendationOracle(
  episode: Episode,
  spec: RecommendationSpec,
  env: string,
  query: string,
  named: string,
): Action {
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
