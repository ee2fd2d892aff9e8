// Full-text search over messages and tool calls: the query in each store's own language, and
// the SQL that turns it into matching episodes. SQLite: FTS5 table EpisodeText (rowid = event
// id). PostgreSQL: tsvector table EpisodeSearch with a GIN index (pg-search.ts fills it).
import type { Dialect } from './db';
import { lexeme } from './pg-search';
import { searchTerms } from './search-text';

/** Terms → an FTS5 query: every term quoted (no FTS5 syntax error possible), ANDed. */
export function ftsQuery(input: string): string | null {
  const terms = searchTerms(input);
  return terms.length ? terms.map((t) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`).join(' AND ') : null;
}

/** Terms → a tsquery literal: quoted words (no parser in between, as in the index), phrases as `a <-> b`, prefixes as `w:*`, ANDed. */
export function tsQuery(input: string): string | null {
  const terms = searchTerms(input);
  return terms.length
    ? terms.map((t) => `(${t.words.map(lexeme).join(' <-> ')}${t.prefix ? ':*' : ''})`).join(' & ')
    : null;
}

/** The store's query for the user's words, or null when they hold no word. */
export const searchQuery = (dialect: Dialect, input: string) =>
  dialect === 'sqlite' ? ftsQuery(input) : tsQuery(input);

/** SQL: the ids of episodes with an event matching the query (bind: `searchQuery(…)`). */
export const matchingEpisodesSql = (dialect: Dialect) =>
  dialect === 'sqlite'
    ? 'SELECT o."episodeId" FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid WHERE "EpisodeText" MATCH ?'
    : `SELECT s."episodeId" FROM "EpisodeSearch" s WHERE s."doc" @@ ?::tsquery`;
