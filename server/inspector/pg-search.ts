// PostgreSQL's full-text index: "EpisodeSearchDoc" (one tsvector per episode: every word of its
// messages and tool calls, no positions; GIN index) is what a search reads, and "EpisodeSearch"
// (one tsvector per message or tool call) checks a phrase or several words inside one event
// (search.ts). A trigger on EpisodeEvent only queues the new event's id (EpisodeSearchPending), so
// every writer (the episode service, the env server's recorder, imports) is covered and pays
// one tiny insert; the words are made here, from the same text as SQLite's index
// (search-text.ts), before a search reads the index. Migrations 20261130180000_inspector_search
// and 20261201000000_inspector_search_doc.
import type { EpisodeEvent } from '@/server/engine/types';
import { loadCatalog } from '@/server/catalogs';
import { materialiseEvents, type CatalogSource } from '@/server/episodes/materialise';
import { prepareTextIndex, type TextIndex } from '@/server/episodes/sqlite-store/text-index';
import type { InspectorDb, Sqlite } from './db';
import { eventSearchText, searchWords } from './search-text';

const BATCH = 2000;

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

const sqliteIndexes = new WeakMap<Sqlite, TextIndex>();

/**
 * How long a reader materialises waiting trainer episodes (materialise.ts) before it answers:
 * a list or chart 300 ms, a search 2 s (it is the one that misses their text). Under a trainer
 * that keeps the server from idling the backlog grows by thousands of episodes a minute; each
 * read takes its share and says how many still wait. ECOMRLVE_LIST_MATERIALISE_MS and
 * ECOMRLVE_SEARCH_MATERIALISE_MS change them (0: one chunk of 64 episodes a read).
 */
export function materialiseBudgetMs(forSearch: boolean): number {
  const [name, fallback] = forSearch ? ['ECOMRLVE_SEARCH_MATERIALISE_MS', 2000] : ['ECOMRLVE_LIST_MATERIALISE_MS', 300];
  const set = Number(process.env[name]);
  return process.env[name] && Number.isFinite(set) && set >= 0 ? set : fallback;
}

/**
 * Makes every committed event searchable before a query reads the index. SQLite: writers leave
 * indexing (and the toolCalls count) to a catch-up (server/episodes/sqlite-store/text-index.ts),
 * so it runs before every list. PostgreSQL counts toolCalls by trigger: its queue is drained
 * only for a search. Returns how many trainer episodes still wait for their events (their
 * text is not searchable and their toolCalls not counted yet).
 */
export async function indexCommitted(
  db: InspectorDb,
  forSearch: boolean,
  catalogOf: CatalogSource = loadCatalog,
): Promise<{ eventsPending: number }> {
  // Trainer episodes' events wait to be stored (materialise.ts): first as many as the budget
  // allows, so that their text and tool-call counts are there to index.
  const { pending } = await materialiseEvents(db, 'all pending', catalogOf, {
    budgetMs: materialiseBudgetMs(forSearch),
  });
  const eventsPending = pending ?? 0;
  if (db.dialect === 'postgresql') {
    if (forSearch) await catchUpSearchIndex(db);
    return { eventsPending };
  }
  const sqlite = db.sqlite!;
  let index = sqliteIndexes.get(sqlite);
  if (!index) sqliteIndexes.set(sqlite, (index = prepareTextIndex(sqlite)));
  index.catchUpBeforeQuery();
  return { eventsPending };
}

/**
 * Indexes every queued event. Drains run one at a time (an advisory lock), so a search that
 * waits here sees everything written before it started.
 */
export async function catchUpSearchIndex(db: InspectorDb): Promise<number> {
  if (db.dialect !== 'postgresql') return 0;
  let indexed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(hashtext('ecomrlve.EpisodeSearch'))`);
      const rows = await tx.all<{ eventId: number; episodeId: string; payload: string }>(
        `SELECT p."eventId", e."episodeId", e."payload" FROM "EpisodeSearchPending" p
         JOIN "EpisodeEvent" e ON e."id" = p."eventId" ORDER BY p."eventId" LIMIT ${BATCH}`,
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.eventId);
      const wordsOf = rows.map((r) => searchWords(eventSearchText(JSON.parse(r.payload) as EpisodeEvent) ?? ''));
      const docs = wordsOf.map(tsvectorLiteral);
      const byEpisode = new Map<string, string[]>();
      rows.forEach((r, i) => {
        const words = byEpisode.get(r.episodeId);
        if (words) words.push(...wordsOf[i]);
        else byEpisode.set(r.episodeId, [...wordsOf[i]]);
      });
      await tx.run(
        `INSERT INTO "EpisodeSearch" ("eventId", "episodeId", "doc")
         SELECT i, ep, doc::tsvector FROM unnest(?::int[], ?::text[], ?::text[]) AS u(i, ep, doc)
         ON CONFLICT ("eventId") DO NOTHING`,
        [ids, rows.map((r) => r.episodeId), docs],
      );
      // The episode's row gains the new words (`||` of two position-less vectors: their union).
      await tx.run(
        `INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
         SELECT ep, doc::tsvector FROM unnest(?::text[], ?::text[]) AS u(ep, doc)
         WHERE EXISTS (SELECT 1 FROM "Episode" e WHERE e."id" = ep)
         ON CONFLICT ("episodeId") DO UPDATE SET "doc" = "EpisodeSearchDoc"."doc" || EXCLUDED."doc"`,
        [[...byEpisode.keys()], [...byEpisode.values()].map(wordsLiteral)],
      );
      await tx.run(`DELETE FROM "EpisodeSearchPending" WHERE "eventId" = ANY(?::int[])`, [ids]);
      return rows.length;
    });
    indexed += n;
    if (n < BATCH) return indexed;
  }
}
