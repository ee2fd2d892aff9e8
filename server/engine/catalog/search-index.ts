// Inverted index with precomputed BM25 impacts, stored in typed arrays. Queries
// run MaxScore (maxscore.ts): exact BM25 top-k, ties to the lower doc id.

import { computeCategoryBounds, maxScoreTopK, type CategoryBounds, type ScoredDoc, type TopKOptions } from './maxscore';

export type { ScoredDoc } from './maxscore';

export const BM25_K1 = 1.2;
export const BM25_B = 0.5;
const IMPACT_SCALE = 4096;
/** Largest term × category bound table kept (floats); bigger imported catalogs go without. */
const MAX_BOUND_CELLS = 16_000_000;

/** The serialisable index: everything is a typed array or a string list. */
export interface SearchIndexData {
  numDocs: number;
  terms: string[];
  /** postings of term t are [offsets[t], offsets[t+1]) */
  offsets: Uint32Array;
  docs: Uint32Array;
  impacts: Float32Array;
  maxImpact: Float32Array;
  /**
   * The per-category bound table when it was computed ahead (a catalog loader thread does it so
   * the server thread does not); derived from the rest, never written to a file.
   */
  categoryMax?: Float32Array;
}

/** The per-category term bound table of an index, or null when it would be too large. */
export function categoryBoundsTable(data: SearchIndexData, categoryCol: ArrayLike<number>, numCategories: number) {
  const cells = data.terms.length * numCategories;
  return cells > 0 && cells <= MAX_BOUND_CELLS ? computeCategoryBounds(data, categoryCol, numCategories).max : null;
}

/**
 * Collects per-document weighted term frequencies, then lays out postings by
 * counting sort. Weights are multiples of 0.5 (field weights), stored doubled.
 */
export class IndexBuilder {
  private readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  private docStart: Uint32Array;
  private docLen: Float32Array;
  private entryTerm = new Uint32Array(1 << 16);
  private entryW2 = new Uint8Array(1 << 16);
  private entries = 0;
  private nextDoc = 0;
  // scratch for merging duplicate terms inside one doc
  private scratchTerm: number[] = [];
  private scratchW2: number[] = [];

  constructor(readonly numDocs: number) {
    this.docStart = new Uint32Array(numDocs + 1);
    this.docLen = new Float32Array(numDocs);
  }

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
    }
    return id;
  }

  /** Add one term occurrence of the current doc with a field weight (0.5 steps). */
  add(termId: number, weight: number): void {
    const w2 = Math.round(weight * 2);
    const st = this.scratchTerm;
    for (let i = 0; i < st.length; i++) {
      if (st[i] === termId) {
        this.scratchW2[i] += w2;
        return;
      }
    }
    st.push(termId);
    this.scratchW2.push(w2);
  }

  /** Close the current document (docs must be added in order 0..numDocs-1). */
  endDoc(): void {
    const doc = this.nextDoc++;
    const st = this.scratchTerm;
    const n = st.length;
    if (this.entries + n > this.entryTerm.length) this.grow(this.entries + n);
    let len2 = 0;
    for (let i = 0; i < n; i++) {
      this.entryTerm[this.entries + i] = st[i];
      const w2 = Math.min(255, this.scratchW2[i]);
      this.entryW2[this.entries + i] = w2;
      len2 += this.scratchW2[i];
    }
    this.entries += n;
    this.docLen[doc] = len2 / 2;
    this.docStart[doc + 1] = this.entries;
    st.length = 0;
    this.scratchW2.length = 0;
  }

  private grow(min: number): void {
    let cap = this.entryTerm.length;
    while (cap < min) cap *= 2;
    const t = new Uint32Array(cap);
    t.set(this.entryTerm.subarray(0, this.entries));
    const w = new Uint8Array(cap);
    w.set(this.entryW2.subarray(0, this.entries));
    this.entryTerm = t;
    this.entryW2 = w;
  }

  build(): SearchIndexData {
    if (this.nextDoc !== this.numDocs) throw new Error(`IndexBuilder: ${this.nextDoc} of ${this.numDocs} docs added`);
    const numTerms = this.terms.length;
    const N = this.numDocs;
    const offsets = new Uint32Array(numTerms + 1);
    for (let e = 0; e < this.entries; e++) offsets[this.entryTerm[e] + 1]++;
    for (let t = 0; t < numTerms; t++) offsets[t + 1] += offsets[t];
    const fill = offsets.slice(0, numTerms);
    const docs = new Uint32Array(this.entries);
    const impacts = new Float32Array(this.entries);
    const maxImpact = new Float32Array(numTerms);
    let total = 0;
    for (let d = 0; d < N; d++) total += this.docLen[d];
    const avgLen = N > 0 ? Math.max(1e-9, total / N) : 1;
    const idf = new Float64Array(numTerms);
    for (let t = 0; t < numTerms; t++) {
      const df = offsets[t + 1] - offsets[t];
      idf[t] = Math.log(1 + (N - df + 0.5) / (df + 0.5));
    }
    for (let d = 0; d < N; d++) {
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.docLen[d]) / avgLen);
      for (let e = this.docStart[d]; e < this.docStart[d + 1]; e++) {
        const t = this.entryTerm[e];
        const tf = this.entryW2[e] / 2;
        // quantised to multiples of 2^-12 so sums are exact and independent of
        // the order terms are added in: equal term sets give equal scores
        const imp = Math.round(((idf[t] * (tf * (BM25_K1 + 1))) / (tf + norm)) * IMPACT_SCALE) / IMPACT_SCALE;
        const p = fill[t]++;
        docs[p] = d;
        impacts[p] = imp;
        if (impacts[p] > maxImpact[t]) maxImpact[t] = impacts[p];
      }
    }
    return { numDocs: N, terms: this.terms.slice(), offsets, docs, impacts, maxImpact };
  }
}

export class SearchIndex {
  private readonly lookup: Map<string, number>;
  /** per-category term bounds (null when the table would be too large) */
  readonly bounds: CategoryBounds | null;

  /** With the catalog's category column, queries also prune by per-category bounds. */
  constructor(
    readonly data: SearchIndexData,
    categoryCol?: ArrayLike<number>,
    numCategories = 0,
  ) {
    this.lookup = new Map(data.terms.map((t, i) => [t, i]));
    const max = categoryCol && (data.categoryMax ?? categoryBoundsTable(data, categoryCol, numCategories));
    this.bounds = categoryCol && max ? { col: categoryCol, numCats: numCategories, max } : null;
  }

  termId(term: string): number {
    return this.lookup.get(term) ?? -1;
  }

  docFreq(termId: number): number {
    return this.data.offsets[termId + 1] - this.data.offsets[termId];
  }

  /** Exact BM25 top-k over the query terms (term id → query term frequency). */
  topK(query: ReadonlyMap<number, number>, k: number, opts: Omit<TopKOptions, 'bounds'> = {}): ScoredDoc[] {
    return maxScoreTopK(this.data, query, k, { ...opts, bounds: this.bounds });
  }
}
