// The read side of the episode tables for everyone outside the episode service: the inspector
// (replay, export, filter menus, spoiler guard, charts, run comparison), the curriculum's run
// view and the batch runs' statistics. They ask here instead of writing their own SELECTs, so
// the tables have one owner (writes: writer.ts). A filter is passed in as a WHERE fragment over
// `e` (the inspector builds it from its URL filter).
import type { EpisodeEvent } from '@/server/engine/types';
import type { PrismaClient } from '@/server/generated/prisma/client';
import type { SqlDb } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import { toSummary } from './store';

/** An Episode row as SQL returns it (JSON columns as text; booleans as 0/1 on SQLite). */
export interface StoredEpisodeRow {
  id: string;
  createdAt: string;
  envId: string;
  d: number;
  seed: number;
  axisOverrides: string;
  axes: string;
  weights: string | null;
  journeyEnvs: string | null;
  catalogId: string;
  status: string;
  terminationReason: string | null;
  reward: number | null;
  isCorrect: number | boolean | null;
  breakdown: string | null;
  turn: number;
  player: string;
  hiddenGoal: string;
  goalRevealed: number | boolean;
  revealedAt: unknown;
  origin: string;
  rewardRevision: number;
  engineVersion: number;
  runLabel: string | null;
  curriculumRunId: string | null;
  recorded: string | null;
  rescored: string | null;
  prompts: string | null;
}

export const episodeRow = (db: SqlDb, id: string) =>
  db.get<StoredEpisodeRow>('SELECT * FROM "Episode" WHERE "id" = ?', [id]);

export const episodeExists = async (db: SqlDb, id: string) =>
  (await db.get('SELECT 1 AS "one" FROM "Episode" WHERE "id" = ?', [id])) !== undefined;

export async function episodeEvents(db: SqlDb, id: string): Promise<EpisodeEvent[]> {
  const rows = await db.all<{ payload: string }>(
    'SELECT "payload" FROM "EpisodeEvent" WHERE "episodeId" = ? ORDER BY "seq"',
    [id],
  );
  return rows.map((e) => JSON.parse(e.payload) as EpisodeEvent);
}

export const episodeActions = (db: SqlDb, id: string) =>
  db.all<{ format: string; raw: string; turn: number }>(
    'SELECT "format", "raw", "turn" FROM "EpisodeAction" WHERE "episodeId" = ? ORDER BY "seq"',
    [id],
  );

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

export interface Where {
  sql: string;
  args: unknown[];
}

/** The episodes page's charts over finished episodes matching `w` (a `WHERE …` fragment or ''). */
export async function outcomeAggregates(db: SqlDb, w: Where) {
  const sql = sqlFor(db.dialect);
  const where = `${w.sql ? `${w.sql} AND` : 'WHERE'} e."status" = 'done'`;
  const part = (key: string) => `avg(${sql.jsonNumber('e."breakdown"', key)}) AS "${key}"`;
  const heatmap = await db.all<{ envId: string; d: number; n: number; passRate: number; meanReward: number }>(
    `SELECT e."envId" AS "envId", e."d" AS "d", count(*) AS "n",
       avg(CASE WHEN e."isCorrect" = TRUE THEN 1.0 ELSE 0.0 END) AS "passRate", avg(e."reward") AS "meanReward"
     FROM "Episode" e ${where} GROUP BY 1, 2 ORDER BY ${sql.bytewise('e."envId"')}, e."d"`,
    w.args,
  );
  const componentsByD = await db.all<{
    d: number;
    n: number;
    rTask: number;
    rEff: number;
    rHall: number;
    total: number;
  }>(
    `SELECT e."d" AS "d", count(*) AS "n", ${part('rTask')}, ${part('rEff')}, ${part('rHall')}, avg(e."reward") AS "total"
     FROM "Episode" e ${where} AND e."breakdown" IS NOT NULL GROUP BY 1 ORDER BY 1`,
    w.args,
  );
  const hist = (col: 'turn' | 'toolCalls') =>
    db.all<{ value: number; n: number }>(
      `SELECT e."${col}" AS "value", count(*) AS "n" FROM "Episode" e ${where} GROUP BY 1 ORDER BY 1`,
      w.args,
    );
  return { heatmap, componentsByD, turns: await hist('turn'), toolCalls: await hist('toolCalls') };
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
export const batchRunEpisodes = (prisma: PrismaClient, runId: string) =>
  prisma.episode.findMany({
    where: { runId },
    select: { envId: true, d: true, status: true, breakdown: true, isCorrect: true, infraError: true },
  });

/** A curriculum run's finished episodes in the order played (its outcome curve). */
export const curriculumOutcomeRows = (prisma: PrismaClient, runId: string) =>
  prisma.episode.findMany({
    where: { curriculumRunId: runId, status: 'done', infraError: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { reward: true, isCorrect: true },
  });

/** A curriculum run's newest episodes and how many it has. */
export async function curriculumRecentEpisodes(prisma: PrismaClient, runId: string, limit: number) {
  const [rows, total] = await Promise.all([
    prisma.episode.findMany({
      where: { curriculumRunId: runId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    }),
    prisma.episode.count({ where: { curriculumRunId: runId } }),
  ]);
  return { items: rows.map(toSummary), total };
}
