// Inverted index with precomputed BM25 impacts, stored in typed arrays, and a
// document-at-a-time MaxScore query (Turtle & Flood 1995): lists whose summed
// upper bounds cannot lift a document above the current k-th score are only
// probed, never scanned. Results are exact BM25 top-k; ties go to the lower doc.

export const BM25_K1 = 1.2;
export const BM25_B = 0.5;
const IMPACT_SCALE = 4096;

/** The serialisable index: everything is a typed array or a string list. */
export interface SearchIndexData {
  numDocs: number;
  terms: string[];
  /** postings of term t are [offsets[t], offsets[t+1]) */
  offsets: Uint32Array;
  docs: Uint32Array;
  impacts: Float32Array;
  maxImpact: Float32Array;
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

export interface ScoredDoc {
  doc: number;
  score: number;
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

export class SearchIndex {
  private readonly lookup: Map<string, number>;

  constructor(readonly data: SearchIndexData) {
    this.lookup = new Map(data.terms.map((t, i) => [t, i]));
  }

  termId(term: string): number {
    return this.lookup.get(term) ?? -1;
  }

  docFreq(termId: number): number {
    return this.data.offsets[termId + 1] - this.data.offsets[termId];
  }

  /**
   * Exact BM25 top-k over the query terms (term id → query term frequency).
   * `accept` (optional) is a cheap per-doc filter, checked before scoring.
   */
  topK(query: ReadonlyMap<number, number>, k: number, accept?: (doc: number) => boolean): ScoredDoc[] {
    if (k <= 0 || query.size === 0) return [];
    const { offsets, docs, impacts, maxImpact } = this.data;
    // lists sorted by upper bound, ascending
    const lists = [...query.entries()]
      .map(([t, qtf]) => ({ t, qtf, ub: maxImpact[t] * qtf }))
      .sort((a, b) => a.ub - b.ub || a.t - b.t);
    const n = lists.length;
    const cur = new Int32Array(n);
    const end = new Int32Array(n);
    const qtf = new Float64Array(n);
    const cum = new Float64Array(n); // cum[i] = sum of ub[0..i]
    let acc = 0;
    for (let i = 0; i < n; i++) {
      cur[i] = offsets[lists[i].t];
      end[i] = offsets[lists[i].t + 1];
      qtf[i] = lists[i].qtf;
      acc += lists[i].ub;
      cum[i] = acc;
    }
    const heap = new TopK(k);
    let theta = -Infinity;
    let firstEssential = 0; // lists [0, firstEssential) are non-essential
    const NONE = 0xffffffff;
    for (;;) {
      // next candidate: smallest current doc among essential lists
      let d = NONE;
      for (let i = firstEssential; i < n; i++) {
        if (cur[i] < end[i] && docs[cur[i]] < d) d = docs[cur[i]];
      }
      if (d === NONE) break;
      if (accept && !accept(d)) {
        for (let i = firstEssential; i < n; i++) if (cur[i] < end[i] && docs[cur[i]] === d) cur[i]++;
        continue;
      }
      let score = 0;
      for (let i = firstEssential; i < n; i++) {
        if (cur[i] < end[i] && docs[cur[i]] === d) {
          score += impacts[cur[i]] * qtf[i];
          cur[i]++;
        }
      }
      // probe non-essential lists, highest bound first, while they can still matter
      for (let i = firstEssential - 1; i >= 0; i--) {
        if (score + cum[i] <= theta) break;
        let p = cur[i];
        const e = end[i];
        if (p < e && docs[p] < d) p = seek(docs, p, e, d);
        cur[i] = p;
        if (p < e && docs[p] === d) score += impacts[p] * qtf[i];
      }
      if (score > theta) {
        heap.push(d, score);
        const th = heap.threshold;
        if (th > theta) {
          theta = th;
          while (firstEssential < n && cum[firstEssential] <= theta) firstEssential++;
          if (firstEssential >= n) break;
        }
      }
    }
    return heap.sorted();
  }
}

/** First position in [p, e) whose doc is ≥ target (galloping, then binary search). */
function seek(docs: Uint32Array, p: number, e: number, target: number): number {
  let step = 1;
  let lo = p;
  let hi = p + 1;
  while (hi < e && docs[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = p + step;
  }
  if (hi > e) hi = e;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
