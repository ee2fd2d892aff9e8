// Reading the customer's words: undo slang, tolerate typos, compare names.
// Shared by every per-environment heuristic.

import { editDistance } from '../../catalog/fuzzy';

const SLANG: Record<string, string> = {
  pls: 'please',
  thx: 'thanks',
  u: 'you',
  ur: 'your',
  qty: 'quantity',
  bc: 'because',
  'w/': 'with',
  smth: 'something',
  rly: 'really',
  r: 'are',
  ned: 'need',
  wanna: 'want',
  ok: 'okay',
};

/** The message with slang spelled out and whitespace collapsed (typos stay). */
export function deslang(text: string): string {
  return text
    .split(/\s+/)
    .map((w) => {
      const m = /^([A-Za-z/]+)([.,!?]*)$/.exec(w);
      const full = m ? SLANG[m[1].toLowerCase()] : undefined;
      return full ? full + m![2] : w;
    })
    .join(' ')
    .trim();
}

/** Lower-case word tokens (letters, digits, inner - . '). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+(?:[-.'][a-z0-9]+)*/g) ?? [];
}

/** Two words are the same up to one typo (two for long words); digits must match exactly. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (/\d/.test(a) || /\d/.test(b)) return false;
  const allowed = Math.min(a.length, b.length) >= 7 ? 2 : Math.min(a.length, b.length) >= 3 ? 1 : 0;
  return allowed > 0 && editDistance(a, b, allowed) <= allowed;
}

/** Share of the words of `wanted` found (typo-tolerant) in `text`. */
export function coverage(wanted: string, text: string): number {
  const w = words(wanted);
  if (w.length === 0) return 0;
  const t = words(text);
  return w.filter((x) => t.some((y) => sameWord(x, y))).length / w.length;
}

/** Symmetric similarity of two names: the mean of both coverages. */
export function nameSimilarity(a: string, b: string): number {
  return (coverage(a, b) + coverage(b, a)) / 2;
}

export interface Span {
  /** Lower-case word without surrounding punctuation. */
  word: string;
  start: number;
  end: number;
}

/** Whitespace-separated words of a text with their character offsets. */
export function spans(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const word = m[0].toLowerCase().replace(/^[^a-z0-9]+|[^a-z0-9+]+$/g, '');
    if (word) out.push({ word, start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

/** Position (span index) of a typo-tolerant phrase in spans, allowing `slack` mismatched words; −1 when absent. */
export function findPhrase(s: Span[], phrase: string, from = 0, slack = 0): number {
  const p = words(phrase);
  if (p.length === 0) return -1;
  // a short phrase with a miss allowed would anchor on any one of its words
  if (p.length < 3) slack = 0;
  for (let i = from; i + p.length <= s.length; i++) {
    let misses = 0;
    for (let k = 0; k < p.length && misses <= slack; k++) if (!sameWord(p[k], s[i + k].word)) misses++;
    if (misses <= slack) return i;
  }
  return -1;
}

/** The raw text between two phrases (either may be omitted: start / end of text). */
export function between(text: string, before: string | null, after: string | null, slack = 0): string | null {
  const s = spans(text);
  let start = 0;
  let from = 0;
  if (before) {
    const i = findPhrase(s, before, 0, slack);
    if (i < 0) return null;
    from = i + words(before).length;
    if (from >= s.length) return null;
    start = s[from].start;
  }
  let end = text.length;
  if (after) {
    const j = findPhrase(s, after, from, slack);
    if (j < 0) return null;
    end = s[j].start;
  }
  return text.slice(start, end).trim();
}

export const stripPunctuation = (text: string) => text.replace(/^[\s,.;:!?]+|[\s,.;:!?]+$/g, '');
