// Feature bags as term ids in one flat store (issue 13): similarity.ts's featureBag — title
// tokens, cat:, dept:, one term per attribute in column order — with integer term counts in its
// insertion order, so a cosine over them sums the same floats in the same order as similarities().

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';

/** similarity.ts's smoothed idf, the same expression. */
export const idfOf = (n: number, df: number, inReference: boolean) =>
  Math.log((1 + n) / (1 + df + (inReference ? 1 : 0))) + 1;

export class BagTerms {
  /** term ids (of the vocabulary the bag was written with) and their counts; bags are runs of these */
  terms = new Int32Array(1 << 16);
  tfs = new Uint16Array(1 << 16);
  /** end of the written terms */
  used = 0;
  /**
   * per category code, the attribute columns some product of it has (a bag reads only these);
   * set by the store's build (BagStore.buildPools, in slices) before any bag is written
   */
  attrColumns: Int32Array[] = [];
  private readonly categoryTerms: [string, string][] = [];
  private readonly attrTerms: string[][] = [];

  constructor(readonly catalog: ColumnarCatalog) {}

  /** Writes product i's bag at `used` (growing the arrays) in `vocab`'s term ids; returns its term count. */
  write(vocab: Map<string, number>, index: number): number {
    const cols = this.catalog.cols;
    const at = this.used;
    let count = 0;
    const add = (word: string) => {
      let term = vocab.get(word);
      if (term === undefined) vocab.set(word, (term = vocab.size));
      for (let j = at; j < at + count; j++)
        if (this.terms[j] === term) {
          this.tfs[j]++;
          return;
        }
      if (at + count >= this.terms.length) this.grow();
      this.terms[at + count] = term;
      this.tfs[at + count] = 1;
      count++;
    };
    for (const t of this.catalog.titleTokensAt(index)) add(t);
    const [catTerm, deptTerm] = this.categoryTermsOf(cols.category[index]);
    add(catTerm);
    add(deptTerm);
    const attrColumns = this.attrColumns[cols.category[index]];
    for (let j = 0; j < attrColumns.length; j++) {
      const a = attrColumns[j];
      const v = cols.attrCols[a][index];
      if (v !== 0) add(this.attrTerm(a, v, index));
    }
    return count;
  }

  private grow(): void {
    const terms = new Int32Array(this.terms.length * 2);
    terms.set(this.terms);
    const tfs = new Uint16Array(this.tfs.length * 2);
    tfs.set(this.tfs);
    this.terms = terms;
    this.tfs = tfs;
  }

  /** `cat:<category>` and `dept:<department>` per category code. */
  private categoryTermsOf(code: number): [string, string] {
    let pair = this.categoryTerms[code];
    if (!pair) {
      const category = this.catalog.cols.categoryTable[code];
      const slash = category.indexOf('/');
      const department = slash < 0 ? category : category.slice(0, slash);
      pair = this.categoryTerms[code] = [`cat:${category.toLowerCase()}`, `dept:${department.toLowerCase()}`];
    }
    return pair;
  }

  /** `<attr>=<value>` for attribute column a, value code v (the value as attrsAt gives it). */
  private attrTerm(a: number, v: number, index: number): string {
    const cols = this.catalog.cols;
    const terms = (this.attrTerms[a] ??= []);
    return (terms[v] ??=
      `${cols.attrNames[a]}=${String(this.catalog.attrsAt(index)[cols.attrNames[a]]).toLowerCase()}`);
  }
}

/**
 * similarities() of similarity.ts over stored bags: the reference's TF-IDF cosine to each
 * candidate (bag k at at[k], len[k] terms), idf from the pool's documents plus the reference,
 * every float in similarities()' order; 0 for the candidates `need` leaves out. refPos: zeros,
 * at least one entry per vocabulary term (left zero again).
 */
export function cosines(
  { terms, tfs }: BagTerms,
  { n, df, idf }: { n: number; df: Int32Array; idf: Float64Array },
  refAt: number,
  refLen: number,
  at: Int32Array,
  len: Uint16Array,
  refPos: Int32Array,
  need?: Uint8Array,
): Float64Array {
  const refIdf = new Float64Array(refLen);
  const refW = new Float64Array(refLen);
  let refSq = 0;
  for (let j = 0; j < refLen; j++) {
    const t = terms[refAt + j];
    refIdf[j] = idfOf(n, t < df.length ? df[t] : 0, true);
    const x = tfs[refAt + j] * refIdf[j];
    refW[j] = x;
    refSq += x * x;
    refPos[t] = j + 1;
  }
  const refNorm = Math.sqrt(refSq);
  const outsideIdf = idfOf(n, 0, false); // a term no document of the pool has
  const sims = new Float64Array(at.length);
  for (let k = 0; k < at.length; k++) {
    if (need && !need[k]) continue;
    let dot = 0;
    let sq = 0;
    for (let j = at[k]; j < at[k] + len[k]; j++) {
      const t = terms[j];
      const p = refPos[t];
      const x = tfs[j] * (p > 0 ? refIdf[p - 1] : t < idf.length ? idf[t] : outsideIdf);
      sq += x * x;
      if (p > 0) dot += x * refW[p - 1];
    }
    sims[k] = refNorm === 0 || sq === 0 ? 0 : Math.min(1, Math.max(0, dot / (refNorm * Math.sqrt(sq))));
  }
  for (let j = 0; j < refLen; j++) refPos[terms[refAt + j]] = 0;
  return sims;
}
