// Typo tolerance: a query word missing from the vocabulary is replaced by the
// vocabulary words closest to it (optimal-string-alignment distance, which
// counts a swap of neighbours as one edit: the user simulator makes exactly
// such typos). Only words of 4+ letters with no digits are corrected, and only
// into words without digits (never into a model code or a size).

import type { SearchIndex } from './search-index';

const MAX_ALTERNATIVES = 3;
const MAX_CACHED = 10_000;

interface FuzzyTable {
  /** alphabetic terms by length: [termId, letter mask] pairs */
  byLength: Map<number, { ids: number[]; masks: number[] }>;
  cache: Map<string, number[]>;
}

const tables = new WeakMap<SearchIndex, FuzzyTable>();

/** 26-bit set of the letters a word contains (a cheap necessary condition for a close match). */
function letterMask(w: string): number {
  let m = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i) - 97;
    if (c >= 0 && c < 26) m |= 1 << c;
  }
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function table(index: SearchIndex): FuzzyTable {
  let t = tables.get(index);
  if (!t) {
    const byLength = new Map<number, { ids: number[]; masks: number[] }>();
    index.data.terms.forEach((term, id) => {
      if (term.length < 3 || /\d/.test(term)) return;
      let b = byLength.get(term.length);
      if (!b) byLength.set(term.length, (b = { ids: [], masks: [] }));
      b.ids.push(id);
      b.masks.push(letterMask(term));
    });
    t = { byLength, cache: new Map() };
    tables.set(index, t);
  }
  return t;
}

// reused DP rows: fuzzy matching runs often and must not allocate per pair
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** OSA edit distance, or max + 1 as soon as it must exceed max. */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (m + 1 > rowA.length) {
    rowA = new Int32Array(2 * (m + 1));
    rowB = new Int32Array(2 * (m + 1));
    rowC = new Int32Array(2 * (m + 1));
  }
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

/** Term ids of the closest known words (distance 1, or 2 for long words); [] when none. */
export function fuzzyTermIds(index: SearchIndex, word: string): number[] {
  if (word.length < 4 || /\d/.test(word)) return [];
  const t = table(index);
  const hit = t.cache.get(word);
  if (hit) return hit;
  const max = word.length >= 8 ? 2 : 1;
  const mask = letterMask(word);
  const found: { id: number; dist: number; df: number }[] = [];
  for (let len = word.length - max; len <= word.length + max; len++) {
    const b = t.byLength.get(len);
    if (!b) continue;
    for (let k = 0; k < b.ids.length; k++) {
      // one edit changes the letter set by at most two letters
      if (popcount(mask ^ b.masks[k]) > 2 * max) continue;
      const id = b.ids[k];
      const dist = editDistance(word, index.data.terms[id], max);
      if (dist <= max) found.push({ id, dist, df: index.docFreq(id) });
    }
  }
  let out: number[] = [];
  if (found.length > 0) {
    const best = Math.min(...found.map((f) => f.dist));
    out = found
      .filter((f) => f.dist === best)
      .sort((x, y) => y.df - x.df || x.id - y.id)
      .slice(0, MAX_ALTERNATIVES)
      .map((f) => f.id);
  }
  if (t.cache.size >= MAX_CACHED) t.cache.clear();
  t.cache.set(word, out);
  return out;
}
