// Seeding the inspector benchmarks: many whole episodes in one transaction, and copies of stored
// episodes made inside the store (the copy's own row, the stored episode's log) so 100,000 rows
// do not each go through JSON. Bench-only: the app stores episodes one by one (insert.ts).
import type { SqlDb } from '@/server/db/sql';
import { episodeStatements, newEpisodeId } from '@/server/episodes/writer';
import { insertEpisode, rowOf, type EpisodeRecord } from '@/server/inspector/insert';

/** Many episodes in one transaction (one commit). */
export const insertMany = (db: SqlDb, rs: EpisodeRecord[]) =>
  db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const r of rs) ids.push(await insertEpisode(tx, r));
    return ids;
  });

/**
 * Many copies of stored episodes in one transaction: each record's own row (id, date, seed,
 * player…) with the log of the stored episode `from` (its events and actions must be the
 * record's), copied inside the store.
 */
export const insertCopies = (db: SqlDb, copies: Array<{ from: string; record: EpisodeRecord }>) =>
  db.transaction(async (tx) => {
    const writes = episodeStatements(tx);
    const ids: string[] = [];
    for (const { from, record } of copies) {
      const row = rowOf(record, record.id ?? newEpisodeId());
      const has = (await tx.get<{ events: number; actions: number }>(
        `SELECT (SELECT count(*) FROM "EpisodeEvent" WHERE "episodeId" = ?) AS "events",
                (SELECT count(*) FROM "EpisodeAction" WHERE "episodeId" = ?) AS "actions"`,
        [from, from],
      ))!;
      if (Number(has.events) !== record.events.length || Number(has.actions) !== record.actions.length)
        throw new Error(
          `episode "${from}" has ${has.events} events and ${has.actions} actions; its copy was given ${record.events.length} and ${record.actions.length}`,
        );
      await tx.batch([...writes.newEpisode(row, []), ...writes.copyLog(from, row)]);
      ids.push(row.id);
    }
    return ids;
  });
