// Writing whole episodes (imports, bench seeding) through the episode writer
// (server/episodes/writer.ts): the Episode row, its events and actions in one transaction (a
// savepoint inside an import's), so an episode is either stored completely or not at all.
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import { episodeStatements, eventRows, jsonOrNull, newEpisodeId, type EpisodeInsert } from '@/server/episodes/writer';
import type { SqlDb } from '@/server/db/sql';

export { newEpisodeId };

export interface EpisodeRecord extends EpisodeSetup {
  id?: string;
  createdAt?: string;
  status: 'active' | 'done';
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
  turn: number;
  player: string;
  hiddenGoal: HiddenGoal;
  events: EpisodeEvent[];
  actions: Array<{ format: 'text' | 'json'; raw: string; turn: number }>;
  goalRevealed: boolean;
  origin: string;
  runLabel: string | null;
  recorded: unknown;
  rescored: unknown;
  prompts: Array<string | null> | null;
  /** the reward revision the recorded reward was computed under (absent in older files: 1) */
  rewardRevision?: number;
  /** training metadata (issue 30): the trainer's step and explicit group */
  trainStep?: number | null;
  rolloutGroup?: string | null;
}

export const rowOf = (r: EpisodeRecord, id: string): EpisodeInsert => ({
  id,
  createdAt: r.createdAt ? new Date(r.createdAt) : new Date(),
  envId: r.envId,
  d: r.d,
  seed: r.seed,
  axisOverrides: JSON.stringify(r.axisOverrides),
  axes: JSON.stringify(r.axes),
  weights: jsonOrNull(r.weights),
  catalogId: r.catalogId,
  player: r.player,
  turn: r.turn,
  status: r.status,
  terminationReason: r.terminationReason,
  reward: r.reward,
  isCorrect: r.isCorrect,
  breakdown: jsonOrNull(r.breakdown),
  hiddenGoal: JSON.stringify(r.hiddenGoal),
  eventCount: r.events.length,
  rewardRevision: r.rewardRevision ?? 1,
  goalRevealed: r.goalRevealed,
  origin: r.origin,
  runLabel: r.runLabel,
  recorded: jsonOrNull(r.recorded),
  rescored: jsonOrNull(r.rescored),
  prompts: jsonOrNull(r.prompts),
  trainStep: r.trainStep ?? null,
  rolloutGroup: r.rolloutGroup ?? null,
});

/** Writes whole episodes on either store; `tx` is the transaction an episode goes into. */
export function createInserter(db: SqlDb) {
  const writes = episodeStatements(db);
  /** One episode, in its own transaction or as a savepoint of `tx`'s: stored whole or not at all. */
  const insert = async (tx: SqlDb, r: EpisodeRecord): Promise<string> => {
    const row = rowOf(r, r.id ?? newEpisodeId());
    const actions = r.actions.map((a, seq) => ({ seq, ...a }));
    await tx.batch(writes.newEpisode(row, eventRows(r.events, 0), actions));
    return row.id;
  };
  /** Runs `write` in one transaction (one commit). */
  const bulk = <T>(write: (tx: SqlDb) => Promise<T>): Promise<T> => db.transaction(write);

  return {
    insert,
    /** Many episodes in one transaction (bench seeding). */
    insertMany: (rs: EpisodeRecord[]) =>
      bulk(async (tx) => {
        const ids: string[] = [];
        for (const r of rs) ids.push(await insert(tx, r));
        return ids;
      }),
    /**
     * Many copies of stored episodes in one transaction (bench seeding): each record's own row
     * (id, date, seed, player…) with the log of the stored episode `from` (its events and actions
     * must be the record's), copied inside the store.
     */
    insertCopies: (copies: Array<{ from: string; record: EpisodeRecord }>) =>
      bulk(async (tx) => {
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
      }),
  };
}
