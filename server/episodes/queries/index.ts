// The read side of the episode tables, one SQL statement per read, through the SQL layer
// (server/db/sql.ts: SQLite or PostgreSQL, the connection the writer commits through): the
// episode service's and the trainer API's reads, and those of the inspector (replay, export,
// filter menus, spoiler guard, run comparison), the curriculum's run view and the batch runs'
// statistics. They ask here instead of writing their own SELECTs, so the tables have one owner
// (writes: writer.ts, and the few one-column updates below). The inspector's list, its filter
// and search are list.ts, filter.ts and search.ts beside this.
import type { EpisodeEvent } from '@/server/engine/types';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import type { EnvId, TerminationReason } from '@/server/engine/types';
import type { EpisodeSummary, InfraFailure } from '../types';
import type { SqlDb } from '@/server/db/sql';
import { flag, sqlFor } from '@/server/db/dialect';
import type { Where } from './filter';

export interface StoredAction {
  seq: number;
  turn: number;
  format: 'text' | 'json';
  raw: string;
  actor: string | null;
  /** the client's idempotency key of the step (null: none sent) */
  stepKey: string | null;
  /** the episode's event count after the step (null for steps stored before step keys existed) */
  eventEnd: number | null;
  /** JSON ModelTurnRecord of a model's turn (never a key) */
  modelRecord: string | null;
}

export interface CustomerRewriteRow {
  turn: number;
  template: string;
  text: string;
  by: string;
  fallback: string | null;
  record: string | null;
}

/** An Episode row as SQL returns it: timestamps as text, booleans as 0/1 on SQLite. */
type SqlEpisodeRow = Omit<EpisodeRow, 'createdAt' | 'updatedAt' | 'revealedAt' | 'isCorrect' | 'goalRevealed'> & {
  createdAt: string;
  updatedAt: string;
  revealedAt: string | null;
  isCorrect: number | boolean | null;
  goalRevealed: number | boolean;
};

/** The row in the app's types (the ones Prisma's client gives): Dates and booleans. */
const episodeOf = (r: SqlEpisodeRow): EpisodeRow => ({
  ...r,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
  revealedAt: r.revealedAt === null ? null : new Date(r.revealedAt),
  isCorrect: flag(r.isCorrect),
  goalRevealed: flag(r.goalRevealed) === true,
});

const SELECT_EPISODE = 'SELECT * FROM "Episode"';

/** Reads of one episode and its rows, and the single-column updates the service makes between steps. */
export function episodeReads(db: SqlDb) {
  const rows = async (where: string, args: unknown[]) =>
    (await db.all<SqlEpisodeRow>(`${SELECT_EPISODE} ${where}`, args)).map(episodeOf);
  /** Sets columns of one row; Prisma's @updatedAt is kept here by hand. */
  const update = (id: string, set: string, args: unknown[], extra = '') =>
    db.run(`UPDATE "Episode" SET ${set}, "updatedAt" = ? WHERE "id" = ?${extra}`, [
      ...args,
      db.timestamp(new Date()),
      id,
    ]);

  const reads = {
    async getRow(id: string): Promise<EpisodeRow | null> {
      return (await rows('WHERE "id" = ?', [id]))[0] ?? null;
    },

    /** The events as stored (JSON text): a rebuild and a re-score compare them byte for byte. */
    getEvents: (id: string) =>
      db.all<{ seq: number; payload: string }>(
        'SELECT "seq", "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"',
        [id],
      ),

    /** The events, parsed. */
    async events(id: string): Promise<EpisodeEvent[]> {
      return (await reads.getEvents(id)).map((e) => JSON.parse(e.payload) as EpisodeEvent);
    },

    /** Every action with who took it, its step key and result end, and a model's turn record. */
    getActions: (id: string) =>
      db.all<StoredAction>(
        `SELECT "seq", "turn", "format", "raw", "actor", "stepKey", "eventEnd", "modelRecord"
         FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"`,
        [id],
      ),

    /** The LLM customer's recorded messages (issue 9 item 8), by turn. */
    getRewrites: (episodeId: string) =>
      db.all<CustomerRewriteRow>(
        'SELECT "turn", "template", "text", "by", "fallback", "record" FROM "CustomerRewrite" WHERE "episodeId" = ? ORDER BY "turn"',
        [episodeId],
      ),

    /** The action stored under this step key, if any (idempotent retries). */
    async findStep(episodeId: string, stepKey: string): Promise<{ eventEnd: number | null } | null> {
      const sql = 'SELECT "eventEnd" FROM "EpisodeAction" WHERE "episodeId" = ? AND "stepKey" = ?';
      return (await db.get<{ eventEnd: number | null }>(sql, [episodeId, stepKey])) ?? null;
    },

    /** How many events the row says the episode has (null: no such episode). */
    async eventCount(id: string): Promise<number | null> {
      const r = await db.get<{ eventCount: number }>('SELECT "eventCount" FROM "Episode" WHERE "id" = ?', [id]);
      return r?.eventCount ?? null;
    },

    async family(row: EpisodeRow): Promise<{ parent: EpisodeSummary | null; forks: EpisodeSummary[] }> {
      const [parent, forks] = await Promise.all([
        row.parentId ? reads.getRow(row.parentId) : null,
        rows('WHERE "parentId" = ? ORDER BY "createdAt" LIMIT 100', [row.id]),
      ]);
      return { parent: parent ? toSummary(parent) : null, forks: forks.map(toSummary) };
    },

    /** Newest first; `cursor` is the id of the last episode of the previous page (unknown: an empty page). */
    async list({ cursor, limit }: { cursor?: string | null; limit: number }) {
      const after = cursor
        ? 'WHERE ("createdAt", "id") < (SELECT "createdAt", "id" FROM "Episode" WHERE "id" = ?)'
        : '';
      const found = await rows(`${after} ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`, [
        ...(cursor ? [cursor] : []),
        limit + 1,
      ]);
      const page = found.slice(0, limit);
      return { items: page.map(toSummary), nextCursor: found.length > limit ? page[page.length - 1].id : null };
    },

    /** Marks the goal as revealed (once; the first time is kept). */
    async markRevealed(id: string): Promise<void> {
      await update(id, '"revealedAt" = ?', [db.timestamp(new Date())], ' AND "revealedAt" IS NULL');
    },

    /** The player derived from the turns' actors (server/episodes/provenance.ts). */
    async setPlayer(id: string, player: string): Promise<void> {
      await update(id, '"player" = ?', [player]);
    },

    async setInfraError(id: string, infra: string | null): Promise<void> {
      await update(id, '"infraError" = ?', [infra]);
    },
  };
  return reads;
}

export type EpisodeReads = ReturnType<typeof episodeReads>;

export function toSummary(row: EpisodeRow): EpisodeSummary {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    envId: row.envId as EnvId,
    d: row.d,
    seed: row.seed,
    catalogId: row.catalogId,
    status: row.status === 'done' ? 'done' : 'active',
    terminationReason: (row.terminationReason as TerminationReason | null) ?? null,
    reward: row.reward,
    isCorrect: row.isCorrect,
    turn: row.turn,
    player: row.player,
    rewardRevision: row.rewardRevision,
    revealed: row.revealedAt !== null,
    parentId: row.parentId,
    forkTurn: row.forkTurn,
    runId: row.runId,
    infraError: row.infraError ? (JSON.parse(row.infraError) as InfraFailure) : null,
  };
}

export const episodeExists = async (db: SqlDb, id: string) =>
  (await db.get('SELECT 1 AS "one" FROM "Episode" WHERE "id" = ?', [id])) !== undefined;

/** An import's deferred re-score, stored when the replay first opens the episode. */
export const storeRescore = (db: SqlDb, id: string, rescored: unknown) =>
  db.run('UPDATE "Episode" SET "rescored" = ? WHERE "id" = ?', [JSON.stringify(rescored), id]);

/** Status and whether the goal was revealed (null for an unknown id). */
export async function goalState(db: SqlDb, id: string): Promise<{ status: string; revealed: boolean } | null> {
  const r = await db.get<{ status: string; revealedAt: unknown }>(
    'SELECT "status", "revealedAt" FROM "Episode" WHERE "id" = ?',
    [id],
  );
  return r ? { status: r.status, revealed: r.revealedAt !== null && r.revealedAt !== undefined } : null;
}

/** Which of these ids had their goal revealed. */
export async function revealedAmong(db: SqlDb, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const sql = `SELECT "id" FROM "Episode" WHERE "revealedAt" IS NOT NULL AND "id" IN (${ids.map(() => '?').join(',')})`;
  return new Set((await db.all<{ id: string }>(sql, [...ids])).map((r) => r.id));
}

/** Distinct non-null values of a column, bytewise ordered (the filter menus). */
export async function distinctValues(
  db: SqlDb,
  column: 'player' | 'catalogId' | 'origin' | 'runLabel',
  limit: number,
): Promise<string[]> {
  const expr = `"${column}"`;
  const rows = await db.all<{ v: string }>(
    `SELECT DISTINCT ${sqlFor(db.dialect).bytewise(expr)} AS "v" FROM "Episode" WHERE ${expr} IS NOT NULL ORDER BY 1 LIMIT ${limit}`,
  );
  return rows.map((r) => r.v);
}

/** The newest finished episode `player` played on the same env, d, seed and axes as `id`. */
export async function sameTaskEpisode(db: SqlDb, id: string, player: string) {
  const r = await db.get<{ envId: string; d: number; seed: number; axisOverrides: string }>(
    'SELECT "envId","d","seed","axisOverrides" FROM "Episode" WHERE "id" = ?',
    [id],
  );
  if (!r) return null;
  const hit = await db.get<{ id: string }>(
    `SELECT "id" FROM "Episode" WHERE "envId" = ? AND "d" = ? AND "seed" = ? AND "axisOverrides" = ? AND "player" = ? AND "id" <> ? AND "status" = 'done' ORDER BY "createdAt" DESC LIMIT 1`,
    [r.envId, r.d, r.seed, r.axisOverrides, player, id],
  );
  return { id: hit?.id ?? null, envId: r.envId, d: r.d, seed: r.seed };
}

/**
 * Pairs the newest finished, infrastructure-clean episode of side A and of side B per
 * (env, d, seed); each side is a condition over `e`.
 */
export async function pairedTasks(db: SqlDb, A: Where, B: Where) {
  const id = sqlFor(db.dialect).bytewise('e."id"');
  const latest = (s: Where) => `SELECT e."envId", e."d", e."seed", e."id", e."isCorrect", e."reward",
      row_number() OVER (PARTITION BY e."envId", e."d", e."seed" ORDER BY e."createdAt" DESC, ${id} DESC) AS rn
    FROM "Episode" e WHERE e."status" = 'done' AND e."infraError" IS NULL AND ${s.sql}`;
  return db.all<{
    envId: string;
    d: number;
    seed: number;
    aId: string;
    bId: string;
    aPass: number | boolean | null;
    bPass: number | boolean | null;
    aReward: number | null;
    bReward: number | null;
  }>(
    `WITH a AS (${latest(A)}), b AS (${latest(B)})
     SELECT a."envId" AS "envId", a."d" AS "d", a."seed" AS "seed", a."id" AS "aId", b."id" AS "bId", a."isCorrect" AS "aPass",
       b."isCorrect" AS "bPass", a."reward" AS "aReward", b."reward" AS "bReward"
     FROM a JOIN b ON a."envId" = b."envId" AND a."d" = b."d" AND a."seed" = b."seed" AND a.rn = 1 AND b.rn = 1
     ORDER BY ${sqlFor(db.dialect).bytewise('a."envId"')}, a."d", a."seed"`,
    [...A.args, ...B.args],
  );
}

/** A batch run's episodes, for its per-cell statistics. */
export async function batchRunEpisodes(db: SqlDb, runId: string) {
  const rows = await db.all<{
    envId: string;
    d: number;
    status: string;
    breakdown: string | null;
    isCorrect: unknown;
    infraError: string | null;
  }>('SELECT "envId", "d", "status", "breakdown", "isCorrect", "infraError" FROM "Episode" WHERE "runId" = ?', [runId]);
  return rows.map((r) => ({ ...r, isCorrect: flag(r.isCorrect) }));
}

/** A curriculum run's finished episodes in the order played (its outcome curve). */
export async function curriculumOutcomeRows(db: SqlDb, runId: string) {
  const rows = await db.all<{ reward: number | null; isCorrect: unknown }>(
    `SELECT "reward", "isCorrect" FROM "Episode" WHERE "curriculumRunId" = ? AND "status" = 'done' AND "infraError" IS NULL
     ORDER BY "createdAt", "id"`,
    [runId],
  );
  return rows.map((r) => ({ reward: r.reward, isCorrect: flag(r.isCorrect) }));
}

/** A curriculum run's newest episodes and how many it has. */
export async function curriculumRecentEpisodes(db: SqlDb, runId: string, limit: number) {
  const [rows, count] = await Promise.all([
    db.all<SqlEpisodeRow>(
      `${SELECT_EPISODE} WHERE "curriculumRunId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
      [runId, limit],
    ),
    db.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "Episode" WHERE "curriculumRunId" = ?', [runId]),
  ]);
  return { items: rows.map((r) => toSummary(episodeOf(r))), total: count?.n ?? 0 };
}
