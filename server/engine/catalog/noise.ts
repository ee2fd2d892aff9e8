// Retrieval noise (SPEC §3, axis eps_rank): each returned rank is, with
// probability eps, replaced by a random product of the same category as the hit
// it replaces, never one already in the list. The replacement keeps the rank's
// score so the list still reads as ranked. Draws come from the episode's Rng, so
// the noise replays exactly.
//
// Decision (issue 31, engine v3): the replacement also satisfies the search's filters. Noise
// blurs ranking and which matching products appear; a stated hard filter ("under $128",
// "Silver") always holds, at every d, so a model never learns that filters lie.

import type { Rng } from '../random';
import type { Catalog, SearchFilters, SearchHit } from './types';

/** Tries before giving up on finding an unused product of the category (tiny categories). */
const MAX_TRIES = 8;

function categoryOf(catalog: Catalog, productId: string): string | undefined {
  if (catalog.indexOf && catalog.categoryAt) {
    const i = catalog.indexOf(productId);
    return i < 0 ? undefined : catalog.categoryAt(i);
  }
  return catalog.get(productId)?.category;
}

/** A category's products that pass the filters (ids), or all of it (indices) when there are none. */
type Pool = { ids: readonly string[] } | { indices: readonly number[] };

function poolOf(catalog: Catalog, category: string, filters: SearchFilters | undefined): Pool {
  const indices = catalog.indicesInCategory(category);
  if (!filters || Object.values(filters).every((v) => v === undefined || v === null)) return { indices };
  const matching = catalog.search({ query: '', filters: { ...filters, category }, topK: indices.length });
  return { ids: matching.map((h) => h.productId) };
}

export function applyRetrievalNoise(
  hits: readonly SearchHit[],
  epsRank: number,
  rng: Rng,
  catalog: Catalog,
  filters?: SearchFilters,
): SearchHit[] {
  const out = hits.map((h) => ({ ...h }));
  if (!(epsRank > 0)) return out;
  const used = new Set(out.map((h) => h.productId));
  const pools = new Map<string, Pool>();
  for (let r = 0; r < out.length; r++) {
    // one draw per rank whatever happens, so later ranks do not depend on earlier outcomes
    const u = rng.next();
    if (u >= epsRank) continue;
    const category = categoryOf(catalog, out[r].productId);
    if (!category) continue;
    let pool = pools.get(category);
    if (!pool) pools.set(category, (pool = poolOf(catalog, category, filters)));
    const size = 'ids' in pool ? pool.ids.length : pool.indices.length;
    for (let t = 0; t < MAX_TRIES && size > 0; t++) {
      const at = Math.floor(rng.next() * size);
      const cand = 'ids' in pool ? pool.ids[at] : catalog.at(pool.indices[at]).id;
      if (used.has(cand)) continue;
      used.delete(out[r].productId);
      used.add(cand);
      out[r] = { productId: cand, score: out[r].score };
      break;
    }
  }
  return out;
}
