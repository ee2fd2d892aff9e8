// Full-text search over messages and tool calls: the query in each store's own language, and
// the SQL that turns it into matching episodes. SQLite: FTS5 table EpisodeText (rowid = event
// id). PostgreSQL: tsvector tables EpisodeSearchDoc (per episode) and EpisodeSearch (per event)
// with GIN indexes (server/inspector/pg-search.ts makes their rows).
import type { Dialect } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import { lexeme } from '@/server/inspector/pg-search';
import { searchTerms } from '@/server/inspector/search-text';

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
 * phrases loosened to "all these words" (`words`); when it has more than one word, an event of
 * the episode must match the whole query (`inOneEvent`, over EpisodeSearch), as an FTS5 row must
 * on SQLite. The query is bound once (its `?` is in FROM, first, as the callers expect).
 */
const PG_QUERY = `(SELECT q::tsquery AS "exact", replace(q, '<->', '&')::tsquery AS "words" FROM (VALUES (?::text)) AS v(q)) AS query`;
/** PostgreSQL: episode `id` has an event matching the whole query `exact` (always so for one word). */
const inOneEvent = (id: string, exact: string) =>
  `(numnode(${exact}) = 1 OR EXISTS (SELECT 1 FROM "EpisodeSearch" x WHERE x."episodeId" = ${id} AND x."doc" @@ ${exact}))`;

const matchParts = (dialect: Dialect) =>
  dialect === 'sqlite'
    ? {
        from: '"EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid',
        episode: 'o."episodeId"',
        match: '"EpisodeText" MATCH ?',
      }
    : {
        // quoted words hold letters and digits only: every `<->` is a phrase operator
        from: `${PG_QUERY} CROSS JOIN "EpisodeSearchDoc" s`,
        episode: 's."episodeId"',
        match: `s."doc" @@ query."words" AND ${inOneEvent('s."episodeId"', 'query."exact"')}`,
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
  if (dialect === 'postgresql')
    // Planned in three steps (OFFSET 0 keeps each apart): the episodes holding the words, from
    // the GIN index (joined under the LIMIT, PostgreSQL would rather walk both primary keys in
    // step and read every episode's words: 3.2 s for a common word in one env at 100,000, 0.46 s
    // this way); those that pass the filters; then, as they stream out, the check inside one
    // event (a subquery per episode, so it runs after the cheap filters and stops at the cap).
    return `SELECT hit."id" FROM (SELECT m."id", m."exact" FROM (SELECT s."episodeId" AS "id", query."exact"
        FROM ${PG_QUERY} CROSS JOIN "EpisodeSearchDoc" s WHERE s."doc" @@ query."words" OFFSET 0) AS m
      JOIN "Episode" e ON e."id" = m."id"${filters ? ` WHERE ${filters}` : ''} OFFSET 0) AS hit
    WHERE ${inOneEvent('hit."id"', 'hit."exact"')} LIMIT ${cap + 1}`;
  const m = matchParts(dialect);
  return `SELECT hit."id" FROM (SELECT DISTINCT ${m.episode} AS "id" FROM ${m.from} WHERE ${m.match}) AS hit
    JOIN "Episode" e ${sqlFor(dialect).filterByIdHint} ON e."id" = hit."id"${filters ? ` WHERE ${filters}` : ''} LIMIT ${cap + 1}`;
};

/**
 * PostgreSQL, a query of several words past the cap: the ids of one page of the matches in list
 * order (bind: the query, `filters.args`, then LIMIT and OFFSET; `order`: the sort's keys). The
 * episodes holding every word that pass the filters are sorted first (cheap: no event is read),
 * then checked inside one event as they stream out in that order, until the page is full. The
 * keys are columns of the sorted rows, so PostgreSQL sees them already in order and does not
 * sort again after the check (which would check every candidate: 3,612 for "monitor cart" at
 * 100,000); OFFSET 0 keeps the check out of the sort. The matches and their order are the same.
 */
export const checkedPageSql = (filters: string, order: Array<{ expr: string; dir: string }>) =>
  `SELECT c."id" FROM (SELECT e."id", query."exact", ${order.map((k, i) => `${k.expr} AS "k${i}"`).join(', ')}
      FROM ${PG_QUERY} CROSS JOIN "Episode" e
      WHERE ${filters ? `${filters} AND ` : ''}e."id" IN (SELECT s."episodeId" FROM "EpisodeSearchDoc" s WHERE s."doc" @@ query."words")
      ORDER BY ${order.map((k, i) => `"k${i}"${k.dir}`).join(', ')} OFFSET 0) AS c
    WHERE ${inOneEvent('c."id"', 'c."exact"')} ORDER BY ${order.map((k, i) => `c."k${i}"${k.dir}`).join(', ')} LIMIT ? OFFSET ?`;
