// A generated title as shared parts (issue 13, 2M products): brand, adjective, noun, model code
// and title specs, each numbered once per catalog. The evaluation pool's feature bags
// (envs/shared/pool-terms.ts) look a part's term ids up by its number instead of each token's
// string in a Map: at 2M products the per-token lookups were most of a bag's cost.

import { formatTitleSpec } from './attributes';
import type { CatalogColumns } from './columns';
import { tokenize } from './tokenize';

/** A title made of shared parts: titleTokens(index) is the tokens of parts(index) in order. */
export interface TitleParts {
  /** part numbers are 0 … count − 1 */
  readonly count: number;
  /** Writes the part numbers of product index's title into out (in title order); returns how many. */
  of(index: number, out: Int32Array): number;
  /** tokenize() of one part's text (the same array on every call). */
  tokens(part: number): readonly string[];
}

/** The columns and tables a generated title is made of (synthetic.ts). */
export interface TitleSource {
  cols: CatalogColumns & { adjective: ArrayLike<number>; noun: ArrayLike<number>; model: ArrayLike<number> };
  /** per category code: its department's adjectives, its nouns, its title attribute columns */
  adjectives: readonly (readonly string[])[];
  nouns: readonly (readonly string[])[];
  titleAttrs: readonly (readonly number[])[];
  modelCount: number;
  modelCode: (m: number) => string;
}

/** Parts numbered brand, then adjectives and nouns per category, model codes, title specs per attribute. */
export class GeneratedTitleParts implements TitleParts {
  readonly count: number;
  private readonly adjectiveAt: Int32Array;
  private readonly nounAt: Int32Array;
  private readonly modelAt: number;
  private readonly specAt: Int32Array;
  /** each segment's first part number and its part's text, ascending by first part */
  private readonly segments: { first: number; text: (k: number) => string }[] = [];
  private readonly cache: (readonly string[] | undefined)[] = [];

  constructor(private readonly source: TitleSource) {
    const { cols, adjectives, nouns } = source;
    let next = 0;
    const segment = (size: number, text: (k: number) => string) => {
      const first = next;
      if (size > 0) this.segments.push({ first, text });
      next += size;
      return first;
    };
    segment(cols.brandTable.length, (b) => cols.brandTable[b]);
    this.adjectiveAt = Int32Array.from(adjectives, (words) => segment(words.length, (k) => words[k]));
    this.nounAt = Int32Array.from(nouns, (words) => segment(words.length, (k) => words[k]));
    this.modelAt = segment(source.modelCount, source.modelCode);
    this.specAt = Int32Array.from(cols.attrTables, (table, a) =>
      segment(table.length, (k) => formatTitleSpec(cols.attrNames[a], table[k])),
    );
    this.count = next;
  }

  of(i: number, out: Int32Array): number {
    const cols = this.source.cols;
    const c = cols.category[i];
    out[0] = cols.brand[i];
    out[1] = this.adjectiveAt[c] + cols.adjective[i];
    out[2] = this.nounAt[c] + cols.noun[i];
    out[3] = this.modelAt + cols.model[i];
    let n = 4;
    const titleAttrs = this.source.titleAttrs[c];
    for (let j = 0; j < titleAttrs.length; j++) {
      const a = titleAttrs[j];
      const v = cols.attrCols[a][i];
      if (v !== 0) out[n++] = this.specAt[a] + v - 1; // attribute codes: 0 = none, v = table entry v − 1
    }
    return n;
  }

  tokens(part: number): readonly string[] {
    let tokens = this.cache[part];
    if (!tokens) {
      let lo = 0;
      let hi = this.segments.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.segments[mid].first <= part) lo = mid;
        else hi = mid - 1;
      }
      const s = this.segments[lo];
      tokens = this.cache[part] = tokenize(s.text(part - s.first));
    }
    return tokens;
  }

  /** The title's tokens: its parts' tokens in order. */
  titleTokens(i: number, scratch: Int32Array): string[] {
    const out: string[] = [];
    const n = this.of(i, scratch);
    for (let k = 0; k < n; k++) for (const t of this.tokens(scratch[k])) out.push(t);
    return out;
  }
}
