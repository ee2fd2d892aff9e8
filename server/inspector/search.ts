// Full-text search over messages and tool calls: the query in each store's own language, and
// the SQL that turns it into matching episodes. SQLite: FTS5 table EpisodeText (rowid = event
// id). PostgreSQL: tsvector table EpisodeSearch with a GIN index (pg-search.ts fills it).
import type { Dialect } from './db';
import { sqlFor } from './dialect';
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

/** The matching events: FROM tables, their episode id column and the condition (bind: `searchQuery(…)`). */
const matchParts = (dialect: Dialect) =>
  dialect === 'sqlite'
    ? {
        from: '"EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid',
        episode: 'o."episodeId"',
        match: '"EpisodeText" MATCH ?',
      }
    : { from: '"EpisodeSearch" s', episode: 's."episodeId"', match: 's."doc" @@ ?::tsquery' };

/** SQL: the ids of episodes with an event matching the query (bind: `searchQuery(…)`). */
export const matchingEpisodesSql = (dialect: Dialect) => {
  const m = matchParts(dialect);
  return `SELECT ${m.episode} FROM ${m.from} WHERE ${m.match}`;
};

/**
 * SQL: the ids of matching episodes that pass the filters, up to `cap + 1` of them, taken as the
 * matches stream out of the index (bind: the query, then `filters.args`). A common word stops
 * after its first few thousand events instead of collecting every matching episode first; for
 * a rarer one these are all the matches, and the page is read from them by id.
 */
export const matchingIdsSql = (dialect: Dialect, filters: string, cap: number) => {
  const m = matchParts(dialect);
  return `SELECT hit."id" FROM (SELECT DISTINCT ${m.episode} AS "id" FROM ${m.from} WHERE ${m.match}) AS hit
    JOIN "Episode" e ${sqlFor(dialect).filterByIdHint} ON e."id" = hit."id"${filters ? ` WHERE ${filters}` : ''} LIMIT ${cap + 1}`;
};
