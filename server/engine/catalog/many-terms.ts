// Exact top-k for queries of many terms: a product title pasted whole (issue 13). MaxScore walks
// the docs of a title's common words until its k-th score has risen to the level of the title's
// "same title, other model code" family, and only then can skip them. Here that level comes
// first, and with it the few docs that can beat it:
// 1. Bound. The docs holding every term but the rarest (the family) are found by walking the
//    shortest of those lists with seeks into the others, and scored exactly over all terms; while
//    fewer than k are found, the most common term is left out of the walk. Any k docs' exact
//    scores bound the k-th best score from below; the floor lies just under that bound.
// 2. Candidates. A doc missing the terms M scores at most Σub − ub(M) (ub: a term's best impact
//    × its query count), so it can beat the floor only if ub(M) < slack = Σub − floor. With R
//    the term of highest ub, a doc without R beats the floor only if it holds every term L with
//    ub(R) + ub(L) ≥ slack (the required terms). The candidates are R's postings and the docs
//    holding every required term; each is scored exactly, and the top k is taken by score, then
//    lower doc: the exact BM25 top k, the same as MaxScore's (search.test.ts compares them).
// When a step does not apply (fewer than 3 terms, a list too long to walk, no required term),
// the caller runs MaxScore starting from the floor.

import type { ScoredDoc } from './maxscore';
import { seek } from './postings';
import type { SearchIndexData } from './search-index';

/** A query term: id, count in the query, upper bound of its contribution. */
export interface QueryList {
  t: number;
  qtf: number;
  ub: number;
}

/** Lists longer than this are not walked (the walk would cost more than MaxScore). */
const WALK_MAX = 50_000;
/** R's postings are scored one by one only when there are at most this many. */
const SCORE_MAX = 5_000;

export function manyTermTopK(
  data: SearchIndexData,
  lists: readonly QueryList[],
  k: number,
  accept?: (doc: number) => boolean,
): { hits: ScoredDoc[] | null; floor: number } {
  if (lists.length < 3) return { hits: null, floor: -Infinity };
  const df = (l: QueryList) => data.offsets[l.t + 1] - data.offsets[l.t];
  const byDf = [...lists].sort((a, b) => df(a) - df(b) || a.t - b.t);
  let bound = -Infinity;
  let walkedAll: QueryList[] = [];
  let walked: ScoredDoc[] = [];
  for (let last = byDf.length; last >= 3 && bound === -Infinity; last--) {
    const found = conjunction(data, byDf.slice(1, last), lists, accept);
    if (!found) return { hits: null, floor: -Infinity };
    if (found.length >= k) {
      bound = found.map((h) => h.score).sort((a, b) => b - a)[k - 1];
      walkedAll = byDf.slice(1, last);
      walked = found;
    }
  }
  if (!(bound > 0)) return { hits: null, floor: -Infinity };
  const floor = bound * (1 - 1e-9);
  const slack = lists.reduce((sum, l) => sum + l.ub, 0) - floor;
  let r = lists[0];
  for (const l of lists) if (l.ub > r.ub || (l.ub === r.ub && l.t < r.t)) r = l;
  const required = lists.filter((l) => l !== r && r.ub + l.ub >= slack);
  if (required.length === 0 || df(r) > SCORE_MAX) return { hits: null, floor };
  const sameAsWalked = required.length === walkedAll.length && required.every((l) => walkedAll.includes(l));
  const holdingRequired = sameAsWalked ? walked : conjunction(data, required, lists, accept);
  if (!holdingRequired) return { hits: null, floor };
  const withR: number[] = [];
  for (let p = data.offsets[r.t]; p < data.offsets[r.t + 1]; p++)
    if (!accept || accept(data.docs[p])) withR.push(data.docs[p]);
  const candidates = holdingRequired.concat(scoreAscending(data, lists, withR));
  // a doc found both ways has the same (exact) score: adjacent once sorted
  candidates.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const hits: ScoredDoc[] = [];
  for (const h of candidates) {
    if (hits.length === k) break;
    if (hits.length === 0 || hits[hits.length - 1].doc !== h.doc) hits.push(h);
  }
  return { hits, floor };
}

/**
 * The docs holding every term of `walk` (that `accept` takes), scored over all `lists`; null when
 * the shortest of them is too long to walk.
 */
function conjunction(
  data: SearchIndexData,
  walk: readonly QueryList[],
  lists: readonly QueryList[],
  accept?: (doc: number) => boolean,
): ScoredDoc[] | null {
  const { offsets, docs, impacts } = data;
  const sorted = [...walk].sort((a, b) => offsets[a.t + 1] - offsets[a.t] - (offsets[b.t + 1] - offsets[b.t]));
  const driver = sorted[0];
  const driverEnd = offsets[driver.t + 1];
  if (driverEnd - offsets[driver.t] > WALK_MAX) return null;
  const others = sorted.slice(1);
  const cur = others.map((l) => offsets[l.t]);
  const end = others.map((l) => offsets[l.t + 1]);
  const rest = lists.filter((l) => !walk.includes(l)); // scored by seeking
  const restCur = rest.map((l) => offsets[l.t]);
  const found: ScoredDoc[] = [];
  walk: for (let p = offsets[driver.t]; p < driverEnd; p++) {
    const doc = docs[p];
    for (let j = 0; j < others.length; j++) {
      const e = end[j];
      let q = cur[j];
      const near = q + 8 < e ? q + 8 : e; // most steps move a few postings: a short scan, then gallop
      while (q < near && docs[q] < doc) q++;
      if (q === near && q < e && docs[q] < doc) q = seek(docs, q, e, doc);
      cur[j] = q;
      if (q >= e) break walk; // a list is exhausted: no later doc holds every term
      if (docs[q] !== doc) continue walk;
    }
    if (accept && !accept(doc)) continue;
    // impacts are multiples of 2^-12: the sum is exact in any order (the same score as MaxScore's)
    let score = impacts[p] * driver.qtf;
    for (let j = 0; j < others.length; j++) score += impacts[cur[j]] * others[j].qtf;
    for (let j = 0; j < rest.length; j++) {
      const e = offsets[rest[j].t + 1];
      const q = (restCur[j] = seek(docs, restCur[j], e, doc));
      if (q < e && docs[q] === doc) score += impacts[q] * rest[j].qtf;
    }
    found.push({ doc, score });
  }
  return found;
}

/** Exact scores of ascending docs over every list. */
function scoreAscending(data: SearchIndexData, lists: readonly QueryList[], found: readonly number[]): ScoredDoc[] {
  const { offsets, docs, impacts } = data;
  const cur = lists.map((l) => offsets[l.t]);
  return found.map((doc) => {
    let score = 0;
    for (let i = 0; i < lists.length; i++) {
      const e = offsets[lists[i].t + 1];
      const p = (cur[i] = seek(docs, cur[i], e, doc));
      if (p < e && docs[p] === doc) score += impacts[p] * lists[i].qtf;
    }
    return { doc, score };
  });
}
