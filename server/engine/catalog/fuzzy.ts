// Typo tolerance: a query word missing from the vocabulary is replaced by the
// vocabulary words closest to it (optimal-string-alignment distance, which
// counts a swap of neighbours as one edit: the user simulator makes exactly
// such typos). Only words of 4+ letters with no digits are corrected.

import type { SearchIndex } from './search-index';

const MAX_ALTERNATIVES = 3;
const byLength = new WeakMap<SearchIndex, Map<number, number[]>>();

function buckets(index: SearchIndex): Map<number, number[]> {
  let b = byLength.get(index);
  if (!b) {
    b = new Map();
    index.data.terms.forEach((t, id) => {
      const list = b!.get(t.length);
      if (list) list.push(id);
      else b!.set(t.length, [id]);
    });
    byLength.set(index, b);
  }
  return b;
}

/** OSA edit distance, or max + 1 as soon as it must exceed max. */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Int32Array(m + 1);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, prev2[j - 2] + 1);
      }
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
  const max = word.length >= 8 ? 2 : 1;
  const b = buckets(index);
  const found: { id: number; dist: number; df: number }[] = [];
  for (let len = word.length - max; len <= word.length + max; len++) {
    for (const id of b.get(len) ?? []) {
      const dist = editDistance(word, index.data.terms[id], max);
      if (dist <= max) found.push({ id, dist, df: index.docFreq(id) });
    }
  }
  if (found.length === 0) return [];
  const best = Math.min(...found.map((f) => f.dist));
  return found
    .filter((f) => f.dist === best)
    .sort((x, y) => y.df - x.df || x.id - y.id)
    .slice(0, MAX_ALTERNATIVES)
    .map((f) => f.id);
}
