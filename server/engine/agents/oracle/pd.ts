import type { PdGoal } from '../../envs/pd';
import type { Constraint } from '../../envs/shared/persona';
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

/**
 * The best k wanted items among those retrieved (`retrieved`), in the pool's order: what to
 * name when the turns ran out before every ideal pick could be fetched.
 */
export function bestRetrieved(
  episode: Episode,
  spec: RecommendationSpec,
  retrieved: (id: string) => boolean,
): string[] {
  return wantedNow(episode, spec, Infinity)
    .filter((e) => retrieved(e.id))
    .slice(0, spec.k)
    .map((e) => e.id);
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

const EQ_FILTERS = new Set(['brand', 'color', 'size', 'material', 'connector_type', 'item_form']);
const BOUND_FILTERS: Record<string, string> = {
  'price:max': 'price_max',
  'rating:min': 'rating_min',
  'ship_days:max': 'ship_days_max',
  'wattage:min': 'wattage_min',
  'wattage:max': 'wattage_max',
};

/** The customer's constraints that catalog.search can filter on. */
function searchFilters(constraints: readonly Constraint[]): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const c of constraints) {
    if (c.op === 'eq' && EQ_FILTERS.has(c.attr)) out[c.attr] = c.value;
    const bound = BOUND_FILTERS[`${c.attr}:${c.op}`];
    if (bound && typeof c.value === 'number') out[bound] = c.value;
  }
  return out;
}

/**
 * One search of the spec's category under the customer's constraints: shows many picks at once.
 * `withWords`: constraints no filter expresses (e.g. resolution) become the query's words, so
 * the top results meet them too (PD d = 1 seed 740320545: a filter-only search of monitors
 * showed 190 of the wrong resolution).
 */
export function categorySearch(
  episode: Episode,
  spec: RecommendationSpec,
  withWords = false,
  targets: readonly string[] = [],
): ToolCall {
  const words = withWords
    ? spec.constraints
        .filter((c) => c.op === 'eq' && !EQ_FILTERS.has(c.attr) && typeof c.value === 'string')
        .map((c) => String(c.value))
    : [];
  // top_k binds from engine v3 (as few as 5 results): the picks' own title words rank them first
  for (const id of targets) words.push(...(episode.catalogProduct(id)?.title.split(/\s+/) ?? []));
  return {
    name: 'catalog.search',
    args: {
      query: words.length ? [...new Set(words)].join(' ') : '*',
      filters: { category: spec.category, in_stock: true, ...searchFilters(spec.constraints) },
      top_k: episode.axes.top_k,
    },
  };
}

export const searchedAlready = (episode: Episode) =>
  episode.events.some((e) => e.kind === 'tool_call' && e.name === 'catalog.search' && e.error === null);

/**
 * Retrieve each pick with catalog.get_product, B_tool per turn (a retrieval may trigger
 * p_oos, after which the best list changes), naming one to the customer; answer in the
 * turn whose calls retrieve the last pick. k ≤ B_tool·(T_max − 1) at every d. When p_oos
 * has taken picks away so that the picks left (plus one spare) no longer fit the calls left,
 * one category search retrieves many at once (PD d = 1 seed 1000081 ran out of turns).
 */
export function recommendationOracle(episode: Episode, spec: RecommendationSpec, env: string, named: string): Action {
  const best = bestRecommendation(episode, spec);
  const unseen = best.filter((id) => !episode.seenIds.has(id));
  const turnsLeft = episode.axes.T_max - episode.turn;
  const spare = episode.axes.p_oos > 0 ? 1 : 0;
  const tight = unseen.length + spare > episode.axes.B_tool * turnsLeft;
  if (tight && unseen.length > 1 && turnsLeft > 1 && !searchedAlready(episode))
    return {
      assistant_message: `Let me look through what is in stock. ${named} looks like a good fit.`,
      tool_calls: [categorySearch(episode, spec, true, unseen)],
      answer: null,
    };
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
