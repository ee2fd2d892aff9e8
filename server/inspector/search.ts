// Full-text search over messages and tool calls: the query in each store's own language, and
// the SQL that turns it into matching episodes. SQLite: FTS5 table EpisodeText (rowid = event
// id). PostgreSQL: tsvector tables EpisodeSearchDoc (per episode) and EpisodeSearch (per event)
// with GIN indexes (pg-search.ts fills them).
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

/**
 * The matching rows: FROM tables, their episode id column, the condition (bind: `searchQuery(…)`)
 * and whether one episode can match several times. SQLite: events (FTS5 table EpisodeText).
 * PostgreSQL: episodes (EpisodeSearchDoc, every word of the episode, no positions), the query's
 * phrases loosened to "all these words"; when it has more than one word, an event of the
 * episode must match the whole query (EpisodeSearch), as an FTS5 row must on SQLite. The query
 * is bound once (its `?` is in FROM, first, as the callers expect).
 */
const matchParts = (dialect: Dialect) =>
  dialect === 'sqlite'
    ? {
        from: '"EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid',
        episode: 'o."episodeId"',
        match: '"EpisodeText" MATCH ?',
        distinct: 'DISTINCT ',
      }
    : {
        // quoted words hold letters and digits only: every `<->` is a phrase operator
        from: `(SELECT q::tsquery AS "exact", replace(q, '<->', '&')::tsquery AS "words" FROM (VALUES (?::text)) AS v(q)) AS query
          CROSS JOIN "EpisodeSearchDoc" s`,
        episode: 's."episodeId"',
        match: `s."doc" @@ query."words" AND (numnode(query."exact") = 1 OR EXISTS (SELECT 1 FROM "EpisodeSearch" x
          WHERE x."episodeId" = s."episodeId" AND x."doc" @@ query."exact"))`,
        distinct: '',
      };

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
  return `SELECT hit."id" FROM (SELECT ${m.distinct}${m.episode} AS "id" FROM ${m.from} WHERE ${m.match}) AS hit
    JOIN "Episode" e ON e."id" = hit."id"${filters ? ` WHERE ${filters}` : ''} LIMIT ${cap + 1}`;
};
