// The text of an event for full-text search, and how text splits into words. Pure: the
// PostgreSQL index is built from it (server/inspector/pg-search.ts) and it mirrors what SQLite's
// index holds (server/episodes/writer.ts: name, args, result and error of a tool call; the text
// of a message), so a search finds the same episodes on both stores.
import type { EpisodeEvent } from '@/server/engine/types';

/** Event kinds whose text is searchable. */
// As SQLite's json_extract gives it: a string as itself, anything else as JSON, null as ''.
const part = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The searchable text of one event, or null for kinds that are not searched. */
export function eventSearchText(e: EpisodeEvent): string | null {
  if (e.kind === 'tool_call') return [e.name, e.args, e.result, e.error].map(part).join(' ');
  if (e.kind === 'customer_message' || e.kind === 'agent_message') return part(e.text);
  return null;
}

/**
 * Text → words as FTS5's `unicode61 remove_diacritics 2` tokenizer makes them: runs of letters,
 * digits and private-use characters, lower case, accents removed; everything else (spaces, `_`,
 * `-`, punctuation, symbols) separates words. Checked against FTS5 itself over generated text
 * (search-text.test.ts); only emoji and other symbols outside the Basic Multilingual Plane differ
 * (FTS5's table keeps some of them inside words).
 */
export function searchWords(text: string): string[] {
  // Most text (ids, JSON, English) is ASCII: no accents, no case rules beyond A–Z.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return (
    text
      .replace(/[\p{Lu}\p{Lt}]/gu, (c) => c.toLowerCase()) // one letter at a time: Σ → σ always, as FTS5
      .normalize('NFD') // letters and their accents apart (canonical only, as FTS5 folds)
      .replace(/\p{M}/gu, '')
      .normalize('NFC') // Hangul and the like back together
      .match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []
  );
}

/** One term of a search: its words in order (a phrase when several), the last maybe a prefix. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/**
 * The user's words → terms, all of which must match (AND). `"a phrase"` keeps its words
 * together; a trailing `*` makes the last word a prefix; an id such as `syn_000152-v` is a
 * phrase of its parts. Nothing the user types is a syntax error.
 */
export function searchTerms(input: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const m of input.matchAll(/"([^"]*)"|(\S+)/g)) {
    const words = searchWords(m[1] ?? m[2]);
    if (words.length) terms.push({ words, prefix: m[1] === undefined && m[2].endsWith('*') });
  }
  return terms;
}
