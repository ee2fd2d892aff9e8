// Tokenizer shared by indexing and querying, so both sides agree exactly.
// Lowercase; words are runs of letters/digits that may contain "-", "." or "'".
// A hyphenated word gives its parts and the joined form ("usb-c" -> usb, c, usbc)
// so "usb c", "usbc" and "usb-c" all meet. A number with a unit gives both
// forms ("65w" -> 65w, 65). Plural "s" is stripped (chargers -> charger).

const WORD = /[\p{L}\p{N}]+(?:[-.'’][\p{L}\p{N}]+)*/gu;
const NUM_UNIT = /^(\d+(?:\.\d+)?)([a-z]+)$/;

const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'the',
  'for',
  'of',
  'with',
  'to',
  'in',
  'on',
  'by',
  'or',
  'at',
  'from',
  'is',
  'it',
  'my',
  'me',
  'i',
]);

/** Light English plural stemmer: enough for catalog nouns, cheap, and the same on both sides. */
export function stem(w: string): string {
  const n = w.length;
  if (n <= 3 || w.charCodeAt(n - 1) !== 115 /* s */) return w;
  if (/\d/.test(w)) return w;
  if (w.endsWith('ies') && n > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ches') || w.endsWith('shes') || w.endsWith('xes')) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  return w.slice(0, -1);
}

function pushWord(w: string, out: string[]): void {
  if (w.length === 0 || STOPWORDS.has(w)) return;
  out.push(stem(w));
  const m = NUM_UNIT.exec(w);
  if (m) out.push(m[1]);
}

function pushPart(w: string, out: string[]): void {
  if (w.includes('.') && !/^\d+(?:\.\d+)?[a-z]*$/.test(w)) {
    // "e.g" or "v1.2.3": dots separate words unless they sit inside a number
    for (const part of w.split('.')) pushWord(part, out);
  } else pushWord(w, out);
}

/** Tokens of a text, in order, duplicates kept (callers count term frequency). */
export function tokenize(text: string, out: string[] = []): string[] {
  const lower = text.toLowerCase();
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(lower)) !== null) {
    const w = m[0].replace(/['’]/g, '');
    if (w.includes('-')) {
      const parts = w.split('-');
      for (const part of parts) pushPart(part, out);
      pushPart(parts.join(''), out);
    } else pushPart(w, out);
  }
  return out;
}
