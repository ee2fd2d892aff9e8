// PostgreSQL's full-text index: "EpisodeSearch" (one tsvector per message or tool call, GIN
// index). A trigger on EpisodeEvent only queues the new event's id (EpisodeSearchPending), so
// every writer (the episode service, the env server's recorder, imports) is covered and pays
// one tiny insert; the words are made here, from the same text as SQLite's index
// (search-text.ts), before a search reads the index. Migration 20261130180000_inspector_search.
import type { EpisodeEvent } from '@/server/engine/types';
import type { InspectorDb } from './db';
import { eventSearchText, searchWords } from './search-text';

const BATCH = 2000;

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
      const words = rows.map((r) =>
        searchWords(eventSearchText(JSON.parse(r.payload) as EpisodeEvent) ?? '').join(' '),
      );
      await tx.run(
        `INSERT INTO "EpisodeSearch" ("eventId", "episodeId", "doc")
         SELECT i, ep, to_tsvector('simple', w) FROM unnest(?::int[], ?::text[], ?::text[]) AS u(i, ep, w)
         ON CONFLICT ("eventId") DO NOTHING`,
        [ids, rows.map((r) => r.episodeId), words],
      );
      await tx.run(`DELETE FROM "EpisodeSearchPending" WHERE "eventId" = ANY(?::int[])`, [ids]);
      return rows.length;
    });
    indexed += n;
    if (n < BATCH) return indexed;
  }
}
