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

const protectedWord = (w: string) => w.length < 3 || /\d/.test(w) || /.[A-Z]/.test(w);

export function applyNoise(text: string, p: number, rng: Rng): string {
  if (p <= 0) return text;
  return text.replace(/[A-Za-z][A-Za-z'-]*/g, (word) => {
    if (protectedWord(word) || !rng.bernoulli(p)) return word;
    const slang = SLANG[word.toLowerCase()];
    return slang ?? typo(word, rng);
  });
}
