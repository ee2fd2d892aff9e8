// Customer typing noise (SPEC §9): slang and typos at rate p_noise.
// Chosen rate semantics: each word (3+ letters) is touched with probability p.
// Words carrying facts an agent cannot recover from context — anything with a
// digit ("65W", "2") or an inner capital ("USB-C", "iPhone") — are left intact.

import type { Rng } from '../random';

const SLANG: Record<string, string> = {
  please: 'pls',
  thanks: 'thx',
  you: 'u',
  your: 'ur',
  quantity: 'qty',
  because: 'bc',
  with: 'w/',
  something: 'smth',
  really: 'rly',
  are: 'r',
  need: 'ned',
  want: 'wanna',
  okay: 'ok',
};

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

function neighbour(ch: string, rng: Rng): string {
  const lower = ch.toLowerCase();
  for (const row of KEYBOARD_ROWS) {
    const i = row.indexOf(lower);
    if (i < 0) continue;
    const options = [row[i - 1], row[i + 1]].filter(Boolean);
    const pick = rng.pick(options);
    return ch === lower ? pick : pick.toUpperCase();
  }
  return ch;
}

function typo(word: string, rng: Rng): string {
  const i = rng.int(1, word.length - 2 >= 1 ? word.length - 2 : 1);
  switch (rng.int(0, 3)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1); // drop
    case 1:
      return word.slice(0, i) + word[i] + word.slice(i); // double
    case 2:
      return i + 1 < word.length ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word; // swap
    default:
      return word.slice(0, i) + neighbour(word[i], rng) + word.slice(i + 1); // neighbour key
  }
}

// A scan by character codes instead of `replace(/[A-Za-z][A-Za-z'-]*/g, fn)` with two regex
// tests per word: the same words in the same order, so the same draws (issue 13). A word never
// holds a digit (the pattern stops at one: "65W" gives "W"), so only its length and an inner
// capital protect it.
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWordChar = (c: number) => isLetter(c) || c === 39 /* ' */ || c === 45; /* - */

/** Whether text[start, end) is a protected word: read in place, a word is sliced out only when touched. */
function protectedWord(text: string, start: number, end: number): boolean {
  if (end - start < 3) return true;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
}

/** A touched word: its slang form, else a typo (exported for the equivalence test). */
export const noisyWord = (word: string, rng: Rng): string => String(SLANG[word.toLowerCase()] ?? typo(word, rng));

export function applyNoise(text: string, p: number, rng: Rng): string {
  if (p <= 0) return text;
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    if (!isLetter(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    if (!protectedWord(text, i, end) && rng.bernoulli(p)) {
      out += text.slice(copied, i) + noisyWord(text.slice(i, end), rng);
      copied = end;
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
