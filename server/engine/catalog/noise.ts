// Retrieval noise (SPEC §3, axis eps_rank): each returned rank is, with
// probability eps, replaced by a random product of the same category as the hit
// it replaces, never one already in the list. The replacement keeps the rank's
// score so the list still reads as ranked. Draws come from the episode's Rng, so
// the noise replays exactly.

import type { Rng } from '../random';
import type { Catalog, SearchHit } from './types';

/** Tries before giving up on finding an unused product of the category (tiny categories). */
const MAX_TRIES = 8;

function categoryOf(catalog: Catalog, productId: string): string | undefined {
  if (catalog.indexOf && catalog.categoryAt) {
    const i = catalog.indexOf(productId);
    return i < 0 ? undefined : catalog.categoryAt(i);
  }
  return catalog.get(productId)?.category;
}

export function applyRetrievalNoise(
  hits: readonly SearchHit[],
  epsRank: number,
  rng: Rng,
  catalog: Catalog,
): SearchHit[] {
  const out = hits.map((h) => ({ ...h }));
  if (!(epsRank > 0)) return out;
  const used = new Set(out.map((h) => h.productId));
  for (let r = 0; r < out.length; r++) {
    // one draw per rank whatever happens, so later ranks do not depend on earlier outcomes
    const u = rng.next();
    if (u >= epsRank) continue;
    const category = categoryOf(catalog, out[r].productId);
    if (!category) continue;
    const pool = catalog.indicesInCategory(category);
    for (let t = 0; t < MAX_TRIES && pool.length > 0; t++) {
      const cand = catalog.at(pool[Math.floor(rng.next() * pool.length)]).id;
      if (used.has(cand)) continue;
      used.delete(out[r].productId);
      used.add(cand);
      out[r] = { productId: cand, score: out[r].score };
      break;
    }
  }
  return out;
}
