// Feature bags as term ids in one flat store (issue 13): test/similarity.ts's featureBag — title
// tokens, cat:, dept:, one term per attribute in column order — with integer term counts in its
// insertion order, so a cosine over them sums the same floats in the same order as similarities().

import type { ColumnarCatalog } from '../../catalog/columnar-catalog';

/** test/similarity.ts's smoothed idf, the same expression. */
export const idfOf = (n: number, df: number, inReference: boolean) =>
  Math.log((1 + n) / (1 + df + (inReference ? 1 : 0))) + 1;

/**
 * One pool's term ids: words → ids in the order first met, and per shared part — a title part
 * (TitleParts), a category's cat:/dept: pair, an attribute value — the ids of its words, so a
 * bag is written from a few part lookups instead of a string Map lookup per word (at 2M
 * products those lookups missed the cache in a large vocabulary). Words get their ids when
 * their part is first met, in the part's word order: the ids a word-by-word writer gives.
 */
export class TermVocab {
  private readonly words = new Map<string, number>();
  /** per part number: 1 + offset of its ids in partIds (0 = not met yet); its id count in partLength */
  private partAt: Int32Array | null = null;
  private partLength: Uint8Array | null = null;
  private partIds = new Int32Array(256);
  private partUsed = 0;

  constructor(private readonly parts: number) {}

  get size(): number {
    return this.words.size;
  }

  id(word: string): number {
    let term = this.words.get(word);
    if (term === undefined) this.words.set(word, (term = this.words.size));
    return term;
  }

  /** Offset in ids() of part p's ids (their number in partCount), resolving `words(p)` when first met. */
  part(p: number, words: (p: number) => readonly string[]): number {
    const partAt = (this.partAt ??= new Int32Array(this.parts));
    const partLength = (this.partLength ??= new Uint8Array(this.parts));
    if (partAt[p] === 0) {
      const list = words(p);
      if (this.partUsed + list.length > this.partIds.length) {
        const grown = new Int32Array(2 * (this.partUsed + list.length));
        grown.set(this.partIds);
        this.partIds = grown;
      }
      for (let j = 0; j < list.length; j++) this.partIds[this.partUsed + j] = this.id(list[j]);
      partAt[p] = this.partUsed + 1;
      partLength[p] = list.length;
      this.partUsed += list.length;
    }
    this.partCount = partLength[p];
    return partAt[p] - 1;
  }
  /** the id count of the last part() */
  partCount = 0;

  ids(): Int32Array {
    return this.partIds;
  }

  /** Drops the part index (a pool whose every bag is stored writes no more; it is rebuilt, the same, if one does). */
  release(): void {
    this.partAt = null;
    this.partLength = null;
    this.partIds = new Int32Array(256);
    this.partUsed = 0;
  }
}

export class BagTerms {
  /**
   * term ids (of the vocabulary the bag was written with) and their counts; bags are runs of these.
   * 16-bit ids and 8-bit counts while they fit (every bag of a 2M catalog is stored: 3 bytes a
   * term instead of 6), widened in place the first time one does not.
   */
  terms: Uint16Array | Int32Array = new Uint16Array(1 << 16);
  tfs: Uint8Array | Uint16Array = new Uint8Array(1 << 16);
  /** end of the written terms */
  used = 0;
  /**
   * per category code, the attribute columns some product of it has (a bag reads only these);
   * set by the store's build (BagStore.buildPools, in slices) before any bag is written
   */
  attrColumns: Int32Array[] = [];
  /** part numbers: title parts [0, titleParts), categories' cat:/dept: pairs, then attribute values (attrPartAt[a] + code) */
  private readonly titleParts: number;
  private readonly attrPartAt: Int32Array;
  readonly partCount: number;
  private readonly scratch = new Int32Array(64);
  // the bag being written
  private at = 0;
  private count = 0;
  private index = 0;

  constructor(readonly catalog: ColumnarCatalog) {
    const cols = catalog.cols;
    this.titleParts = catalog.text.titleParts?.count ?? 0;
    let next = this.titleParts + cols.categoryTable.length;
    this.attrPartAt = Int32Array.from(cols.attrTables, (table) => {
      const first = next;
      next += table.length + 1;
      return first;
    });
    this.partCount = next;
  }

  /** A new pool's vocabulary. */
  vocabulary(): TermVocab {
    return new TermVocab(this.partCount);
  }

  /** Writes product i's bag at `used` (growing the arrays) in `vocab`'s term ids; returns its term count. */
  write(vocab: TermVocab, index: number): number {
    const cols = this.catalog.cols;
    this.at = this.used;
    this.count = 0;
    this.index = index;
    const titleParts = this.catalog.text.titleParts;
    if (titleParts) {
      const n = titleParts.of(index, this.scratch);
      for (let k = 0; k < n; k++) this.addPart(vocab, vocab.part(this.scratch[k], this.titleWords));
    } else for (const t of this.catalog.titleTokensAt(index)) this.add(vocab.id(t));
    const category = cols.category[index];
    this.addPart(vocab, vocab.part(this.titleParts + category, this.categoryWords));
    const attrColumns = this.attrColumns[category];
    for (let j = 0; j < attrColumns.length; j++) {
      const a = attrColumns[j];
      const v = cols.attrCols[a][index];
      if (v !== 0) this.addPart(vocab, vocab.part(this.attrPartAt[a] + v, this.attrWords));
    }
    return this.count;
  }

  private addPart(vocab: TermVocab, offset: number): void {
    const ids = vocab.ids();
    for (let j = offset; j < offset + vocab.partCount; j++) this.add(ids[j]);
  }

  private add(term: number): void {
    const at = this.at;
    for (let j = at; j < at + this.count; j++)
      if (this.terms[j] === term) {
        if (this.tfs[j] === 0xff && this.tfs instanceof Uint8Array) this.tfs = Uint16Array.from(this.tfs);
        this.tfs[j]++;
        return;
      }
    if (term > 0xffff && this.terms instanceof Uint16Array) this.terms = Int32Array.from(this.terms);
    if (at + this.count >= this.terms.length) this.grow();
    this.terms[at + this.count] = term;
    this.tfs[at + this.count] = 1;
    this.count++;
  }

  private readonly titleWords = (p: number) => this.catalog.text.titleParts!.tokens(p);

  /** `cat:<category>` and `dept:<department>` of part titleParts + category code. */
  private readonly categoryWords = (p: number) => {
    const category = this.catalog.cols.categoryTable[p - this.titleParts];
    const slash = category.indexOf('/');
    const department = slash < 0 ? category : category.slice(0, slash);
    return [`cat:${category.toLowerCase()}`, `dept:${department.toLowerCase()}`];
  };

  /** `<attr>=<value>` of part attrPartAt[a] + v (the value as attrsAt gives it for the product being written). */
  private readonly attrWords = (p: number) => {
    const cols = this.catalog.cols;
    let a = 0;
    while (a + 1 < this.attrPartAt.length && this.attrPartAt[a + 1] <= p) a++;
    return [`${cols.attrNames[a]}=${String(this.catalog.attrsAt(this.index)[cols.attrNames[a]]).toLowerCase()}`];
  };

  /** Drops the room beyond the written terms but a little (the built store's arrays grew by doubling). */
  trim(): void {
    const size = this.used + (1 << 16);
    if (size >= this.terms.length) return;
    this.terms = this.terms.slice(0, size);
    this.tfs = this.tfs.slice(0, size);
  }

  private grow(): void {
    const terms =
      this.terms instanceof Uint16Array
        ? new Uint16Array(this.terms.length * 2)
        : new Int32Array(this.terms.length * 2);
    terms.set(this.terms);
    const tfs =
      this.tfs instanceof Uint8Array ? new Uint8Array(this.tfs.length * 2) : new Uint16Array(this.tfs.length * 2);
    tfs.set(this.tfs);
    this.terms = terms;
    this.tfs = tfs;
  }
}

/** The reference's idf and weights in cosines(), reused (cosines runs to its end without re-entering). */
let refScratch = new Float64Array(256);

/**
 * similarities() of test/similarity.ts over stored bags: the reference's TF-IDF cosine to each
 * candidate (bag k at at[k], len[k] terms), idf from the pool's documents plus the reference,
 * every float in similarities()' order; 0 for the candidates `need` leaves out. refPos: zeros,
 * at least one entry per vocabulary term (left zero again). Written into `out` when given (its
 * first at.length entries; recommend-pool.ts's scratch), else into a new array.
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
  out?: Float64Array,
): Float64Array {
  if (refScratch.length < 2 * refLen) refScratch = new Float64Array(4 * refLen);
  const refIdf = refScratch; // [0, refLen)
  const refW = refScratch.subarray(refLen);
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
  const sims = out ?? new Float64Array(at.length);
  for (let k = 0; k < at.length; k++) {
    if (need && !need[k]) {
      sims[k] = 0;
      continue;
    }
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
