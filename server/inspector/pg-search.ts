// PostgreSQL's full-text index: "EpisodeSearchDoc" (one tsvector per episode: every word of its
// messages and tool calls, no positions; GIN index) is what a search reads, and "EpisodeSearch"
// (one tsvector per message or tool call) checks a phrase or several words inside one event
// (search.ts). A trigger on EpisodeEvent queues each new event's id (EpisodeSearchPending); the
// words are made here, from the same text as SQLite's index (search-text.ts), and written by
// the episode writer (server/episodes/writer.ts) before a search reads the index.
import type { EpisodeEvent } from '@/server/engine/types';
import { catchUpSearchIndex as catchUpIndex, type PgSearchRows } from '@/server/episodes/writer';
import type { SqlDb } from '@/server/db/sql';
import { eventSearchText, searchWords } from './search-text';

/** A quoted lexeme of the tsvector / tsquery input syntax. */
export const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The words as a tsvector literal with their positions (1, 2, …; PostgreSQL keeps positions up
 * to 16,383). A literal, not to_tsvector: PostgreSQL's own parser would split or drop some
 * words FTS5 keeps (`a½z`, `²`), so the index would no longer hold what SQLite's holds.
 * Words of searchWords hold letters and digits only: nothing to escape.
 */
export const tsvectorLiteral = (words: string[]): string =>
  words.map((w, i) => `'${w}':${i < 16383 ? i + 1 : 16383}`).join(' ');

/** The distinct words as a tsvector literal without positions (an episode's row: words only). */
export const wordsLiteral = (words: Iterable<string>): string => [...new Set(words)].map((w) => `'${w}'`).join(' ');

/** Queued events' search rows: each event's words with positions, each episode's new words. */
export function pgSearchRows(rows: Array<{ eventId: number; episodeId: string; payload: string }>): PgSearchRows {
  const wordsOf = rows.map((r) => searchWords(eventSearchText(JSON.parse(r.payload) as EpisodeEvent) ?? ''));
  const byEpisode = new Map<string, string[]>();
  rows.forEach((r, i) => {
    const words = byEpisode.get(r.episodeId);
    if (words) words.push(...wordsOf[i]);
    else byEpisode.set(r.episodeId, [...wordsOf[i]]);
  });
  return {
    eventIds: rows.map((r) => r.eventId),
    episodeIds: rows.map((r) => r.episodeId),
    docs: wordsOf.map(tsvectorLiteral),
    episodeDocs: new Map([...byEpisode].map(([id, words]) => [id, wordsLiteral(words)])),
  };
}

/** Makes every committed event searchable (writer.ts, catchUpSearchIndex); returns how many events it indexed. */
export const catchUpSearchIndex = (db: SqlDb) => catchUpIndex(db, pgSearchRows);

/**
 * Before a query reads the store: SQLite indexes what was committed since the last query (and
 * counts tool calls) before every list; PostgreSQL counts tool calls by trigger and indexes only
 * for a search.
 */
export async function indexCommitted(db: SqlDb, forSearch: boolean): Promise<void> {
  if (db.dialect === 'sqlite' || forSearch) await catchUpSearchIndex(db);
}
