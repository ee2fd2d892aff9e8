// Writing whole episodes (imports, bench seeding): the Episode row, its events and actions in
// one SQLite transaction through the shared episode rows (server/episodes/sqlite-store), so an
// episode is either stored completely or not at all. Each transaction indexes its new events
// for full-text search before it commits (text-index.ts): an imported episode is searchable
// as soon as the import returns.
import { randomBytes } from 'node:crypto';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { EpisodeSetup, HiddenGoal } from '@/server/episodes/types';
import {
  eventRows,
  jsonOrNull,
  prepareEpisodeRows,
  sqlDateTime,
  type EpisodeRowInsert,
} from '@/server/episodes/sqlite-store/rows';
import { prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import type { Sqlite } from './db';

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
}

/** Page cache of a bulk transaction (KiB; released when it ends). */
const BULK_CACHE_KIB = 256 * 1024;

export const newEpisodeId = () => `ep${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

export function createInserter(db: Sqlite) {
  const exists = db.prepare('SELECT 1 FROM "Episode" WHERE "id" = ?');
  const rows = prepareEpisodeRows(db);
  const index = prepareTextIndex(db);
  let inBulk = false;

  const rowOf = (r: EpisodeRecord, id: string, created: string): EpisodeRowInsert => ({
    id,
    createdAt: created,
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
    goalRevealed: r.goalRevealed,
    origin: r.origin,
    runLabel: r.runLabel,
    recorded: jsonOrNull(r.recorded),
    rescored: jsonOrNull(r.rescored),
    prompts: jsonOrNull(r.prompts),
  });
  const createdOf = (r: EpisodeRecord) => sqlDateTime(r.createdAt ? new Date(r.createdAt) : new Date());

  const insertOne = (r: EpisodeRecord): string => {
    const id = r.id ?? newEpisodeId();
    const created = createdOf(r);
    rows.insertEpisode(rowOf(r, id, created));
    rows.insertEvents(id, eventRows(r.events, 0));
    r.actions.forEach((a, seq) => rows.insertAction({ episodeId: id, seq, createdAt: created, ...a }));
    return id;
  };

  /**
   * Runs `write` in one transaction and indexes what it wrote before the commit. A bulk
   * transaction is hundreds of MB: with SQLite's default 2 MB page cache its index pages were
   * spilled and read back over and over, so the cache grows to BULK_CACHE_KIB while it runs.
   */
  const bulk = <T>(write: () => T): T => {
    if (inBulk) return db.transaction(write)();
    const cacheBefore = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    inBulk = true;
    try {
      return db.transaction(() => {
        const out = write();
        index.catchUp();
        return out;
      })();
    } finally {
      inBulk = false;
      db.pragma(`cache_size = ${cacheBefore}`);
    }
  };

  return {
    exists: (id: string) => exists.get(id) !== undefined,
    /** One episode, in its own transaction (a savepoint inside `bulk`). */
    insert: (r: EpisodeRecord): string => bulk(() => insertOne(r)),
    /** Many episodes in one transaction. */
    insertMany: (rs: EpisodeRecord[]) => bulk(() => rs.map(insertOne)),
    /**
     * Many copies of stored episodes in one transaction (bench seeding): each record's own row
     * (id, date, seed, player…) with the log of the stored episode `from` (its events and
     * actions must be the record's).
     */
    insertCopies: (copies: Array<{ from: string; record: EpisodeRecord }>) =>
      bulk(() =>
        copies.map(({ from, record }) => {
          const id = record.id ?? newEpisodeId();
          const created = createdOf(record);
          rows.insertEpisode(rowOf(record, id, created));
          const copied = rows.copyLog(from, id, created);
          if (copied.events !== record.events.length || copied.actions !== record.actions.length)
            throw new Error(
              `episode "${from}" has ${copied.events} events and ${copied.actions} actions; its copy was given ${record.events.length} and ${record.actions.length}`,
            );
          return id;
        }),
      ),
    bulk,
  };
}
