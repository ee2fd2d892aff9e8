// Exact top-k BM25 by document-at-a-time MaxScore (Turtle & Flood 1995), with
// two refinements for a catalog:
// - per-category upper bounds: a term's best impact inside the candidate's
//   category (a "set" in knives cannot score like a "set" in tool sets), used to
//   drop a candidate before probing the other lists;
// - category leapfrog: once the k-th score is out of reach for every category
//   but one, candidates jump through that category's sorted doc list only.
// Both only skip documents that provably cannot enter the top k, so results are
// the exact BM25 top-k; ties go to the lower doc id.

import { manyTermTopK } from './many-terms';
import { seek } from './postings';
import type { SearchIndexData } from './search-index';

export interface ScoredDoc {
  doc: number;
  score: number;
}

/** Best impact of each term inside each category: max[term * numCats + category]. */
export interface CategoryBounds {
  col: ArrayLike<number>;
  numCats: number;
  max: Float32Array;
}

export interface TopKOptions {
  /** cheap per-doc filter, checked before the expensive probes */
  accept?: (doc: number) => boolean;
  /** categories a hit may be in (a category filter), or null for all */
  categories?: readonly number[] | null;
  /** sorted doc ids of a set of categories (enables leapfrogging) */
  categoryDocs?: (categories: readonly number[]) => Uint32Array;
  bounds?: CategoryBounds | null;
  /** false: plain MaxScore, without manyTermTopK first (tests compare both) */
  manyTerms?: boolean;
}

/** Min-heap of the current top-k; the root is the weakest (lowest score, then highest doc). */
class TopK {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  size = 0;
  constructor(readonly k: number) {
    this.docs = new Int32Array(k);
    this.scores = new Float64Array(k);
  }
  private weaker(i: number, j: number): boolean {
    const a = this.scores[i];
    const b = this.scores[j];
    return a < b || (a === b && this.docs[i] > this.docs[j]);
  }
  private swap(i: number, j: number): void {
    const d = this.docs[i];
    this.docs[i] = this.docs[j];
    this.docs[j] = d;
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
  }
  /** Docs arrive in ascending order, so a tie never displaces an earlier doc. */
  push(doc: number, score: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      this.docs[i] = doc;
      this.scores[i] = score;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.weaker(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (score <= this.scores[0]) return;
    this.docs[0] = doc;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.weaker(l, m)) m = l;
      if (r < this.size && this.weaker(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }
  sorted(): ScoredDoc[] {
    const out: ScoredDoc[] = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i], score: this.scores[i] });
    out.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return out;
  }
}

const NONE = 0xffffffff;

export function maxScoreTopK(
  data: SearchIndexData,
  query: ReadonlyMap<number, number>,
  k: number,
  opts: TopKOptions = {},
): ScoredDoc[] {
  if (k <= 0 || query.size === 0) return [];
  const { offsets, docs, impacts, maxImpact } = data;
  const { accept, categoryDocs } = opts;
  const bounds = opts.bounds ?? null;
  // lists sorted by upper bound, ascending
  const lists = [...query.entries()]
    .map(([t, qtf]) => ({ t, qtf, ub: maxImpact[t] * qtf }))
    .sort((a, b) => a.ub - b.ub || a.t - b.t);
  const n = lists.length;
  const cur = new Int32Array(n);
  const end = new Int32Array(n);
  const at = new Uint32Array(n); // current doc of each list, NONE when exhausted
  const qtf = new Float64Array(n);
  const cum = new Float64Array(n); // cum[i] = sum of ub[0..i]
  let acc = 0;
  for (let i = 0; i < n; i++) {
    cur[i] = offsets[lists[i].t];
    end[i] = offsets[lists[i].t + 1];
    at[i] = cur[i] < end[i] ? docs[cur[i]] : NONE;
    qtf[i] = lists[i].qtf;
    acc += lists[i].ub;
    cum[i] = acc;
  }

  // per-category bound of the whole query, and per-list bound rows
  const nc = bounds ? bounds.numCats : 0;
  const catCol = bounds ? bounds.col : null;
  const rowBase = new Int32Array(n);
  let catBound: Float64Array | null = null;
  // categories that could still hold a top-k doc, best bound first; the last vcount are dropped as theta rises
  let viable: number[] = [];
  if (bounds) {
    const cb = (catBound = new Float64Array(nc));
    for (let i = 0; i < n; i++) {
      rowBase[i] = lists[i].t * nc;
      for (let c = 0; c < nc; c++) cb[c] += bounds.max[rowBase[i] + c] * qtf[i];
    }
    viable = opts.categories ? [...opts.categories] : Array.from({ length: nc }, (_, c) => c);
    viable.sort((a, b) => cb[b] - cb[a] || a - b);
  }
  let vcount = viable.length;
  const bmax = bounds ? bounds.max : null;

  let required: Uint32Array | undefined = opts.categories && categoryDocs ? categoryDocs(opts.categories) : undefined;
  let rp = 0;

  const heap = new TopK(k);
  let theta = -Infinity;
  let firstEssential = 0; // lists [0, firstEssential) are non-essential
  const minEssential = () => {
    let m = NONE;
    for (let i = firstEssential; i < n; i++) if (at[i] < m) m = at[i];
    return m;
  };
  /** after theta rose: lists become non-essential, categories drop out; false when no doc can enter */
  const raised = (): boolean => {
    while (firstEssential < n && cum[firstEssential] <= theta) firstEssential++;
    if (firstEssential >= n) return false;
    if (catBound) {
      const was = vcount;
      while (vcount > 0 && catBound[viable[vcount - 1]] <= theta) vcount--;
      if (vcount === 0) return false;
      // a single category left: walk its docs instead of the whole lists
      if (vcount === 1 && was > 1 && categoryDocs) {
        required = categoryDocs([viable[0]]);
        rp = 0;
      }
    }
    return true;
  };
  if (opts.manyTerms !== false && !opts.categories) {
    const many = manyTermTopK(data, lists, k, accept);
    if (many.hits) return many.hits;
    // the k-th score is at least many.floor's bound: start there (a doc reaching it is never skipped)
    theta = many.floor;
    if (theta > -Infinity && !raised()) return [];
  }
  let d = minEssential();
  while (d !== NONE) {
    if (required) {
      rp = seek(required, rp, required.length, d);
      if (rp >= required.length) break;
      const r = required[rp];
      if (r > d) {
        // jump every essential list to the next allowed doc
        for (let i = firstEssential; i < n; i++) {
          if (at[i] < r) {
            const p = (cur[i] = seek(docs, cur[i], end[i], r));
            at[i] = p < end[i] ? docs[p] : NONE;
          }
        }
        d = minEssential();
        continue;
      }
    }
    // score the essential lists at d, advance them, and find the next candidate in the same pass
    let score = 0;
    let next = NONE;
    for (let i = firstEssential; i < n; i++) {
      if (at[i] === d) {
        const p = cur[i]++;
        score += impacts[p] * qtf[i];
        at[i] = p + 1 < end[i] ? docs[p + 1] : NONE;
      }
      if (at[i] < next) next = at[i];
    }
    if (accept && !accept(d)) {
      d = next;
      continue;
    }
    // what the non-essential lists can still add, in this doc's category
    let rest = firstEssential > 0 ? cum[firstEssential - 1] : 0;
    const c = catCol ? catCol[d] : 0;
    if (bmax && firstEssential > 0) {
      rest = 0;
      for (let i = 0; i < firstEssential; i++) rest += bmax[rowBase[i] + c] * qtf[i];
      if (score + rest <= theta) {
        d = next;
        continue;
      }
    }
    // probe non-essential lists, highest bound first, while they can still matter
    for (let i = firstEssential - 1; i >= 0; i--) {
      if (score + (rest < cum[i] ? rest : cum[i]) <= theta) break;
      if (bmax) rest -= bmax[rowBase[i] + c] * qtf[i];
      if (at[i] < d) {
        const p = (cur[i] = seek(docs, cur[i], end[i], d));
        at[i] = p < end[i] ? docs[p] : NONE;
      }
      if (at[i] === d) score += impacts[cur[i]] * qtf[i];
    }
    if (score > theta) {
      heap.push(d, score);
      const th = heap.threshold;
      if (th > theta) {
        theta = th;
        const before = firstEssential;
        if (!raised()) break;
        if (firstEssential !== before) next = minEssential();
      }
    }
    d = next;
  }
  return heap.sorted();
}

/** Best impact of every term in every category (one pass over the postings). */
export function computeCategoryBounds(data: SearchIndexData, col: ArrayLike<number>, numCats: number): CategoryBounds {
  const numTerms = data.terms.length;
  const max = new Float32Array(numTerms * numCats);
  for (let t = 0; t < numTerms; t++) {
    const base = t * numCats;
    for (let j = data.offsets[t]; j < data.offsets[t + 1]; j++) {
      const idx = base + col[data.docs[j]];
      if (data.impacts[j] > max[idx]) max[idx] = data.impacts[j];
    }
  }
  return { col, numCats, max };
}
