// The read side of the episode tables: the episode store's reads (Prisma), and those of the
// inspector (replay, export, filter menus, spoiler guard, run comparison), the curriculum's run
// view and the batch runs' statistics. They ask here instead of writing their own SELECTs, so
// the tables have one owner (writes: writer.ts). The inspector's list, its filter and search
// are list.ts, filter.ts and search.ts beside this.
import type { EpisodeEvent } from '@/server/engine/types';
import type { Episode as EpisodeRow, PrismaClient } from '@/server/generated/prisma/client';
import type { EnvId, TerminationReason } from '@/server/engine/types';
import type { EpisodeSummary, InfraFailure } from '../types';
import type { SqlDb } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import type { Where } from './filter';

export interface StoredAction {
  seq: number;
  turn: number;
  format: 'text' | 'json';
  raw: string;
  actor: string | null;
  /** the client's idempotency key of the step (null: none sent) */
  stepKey: string | null;
}

export interface CustomerRewriteRow {
  turn: number;
  template: string;
  text: string;
  by: string;
  fallback: string | null;
  record: string | null;
}

/** The store's reads (Prisma): what re-scoring and replays need without writing. */
export function episodeReads(prisma: PrismaClient) {
  return {
    /** The LLM customer's recorded messages (issue 9 item 8), by turn. */
    async getRewrites(episodeId: string): Promise<CustomerRewriteRow[]> {
      return prisma.customerRewrite.findMany({
        where: { episodeId },
        orderBy: { turn: 'asc' },
        select: { turn: true, template: true, text: true, by: true, fallback: true, record: true },
      });
    },

    /** The action stored under this step key, if any (idempotent retries). */
    async findStep(episodeId: string, stepKey: string): Promise<{ eventEnd: number | null } | null> {
      return prisma.episodeAction.findUnique({
        where: { episodeId_stepKey: { episodeId, stepKey } },
        select: { eventEnd: true },
      });
    },

    /** Marks the goal as revealed (once; the first time is kept). */
    async markRevealed(id: string): Promise<void> {
      await prisma.episode.updateMany({ where: { id, revealedAt: null }, data: { revealedAt: new Date() } });
    },

    async getRow(id: string): Promise<EpisodeRow | null> {
      return prisma.episode.findUnique({ where: { id } });
    },

    async getEvents(id: string): Promise<Array<{ seq: number; payload: string }>> {
      return prisma.episodeEvent.findMany({
        where: { episodeId: id },
        orderBy: { seq: 'asc' },
        select: { seq: true, payload: true },
      });
    },

    async getActions(id: string): Promise<StoredAction[]> {
      const rows = await prisma.episodeAction.findMany({
        where: { episodeId: id },
        orderBy: { seq: 'asc' },
        select: { seq: true, turn: true, format: true, raw: true, actor: true, stepKey: true },
      });
      return rows.map((r) => ({ ...r, format: r.format === 'json' ? 'json' : 'text' }));
    },

    /** Model turn records (JSON) by action seq, for the replay's "what the agent saw / what the model said". */
    async getModelRecords(
      id: string,
    ): Promise<Array<{ seq: number; actor: string | null; modelRecord: string | null }>> {
      return prisma.episodeAction.findMany({
        where: { episodeId: id },
        orderBy: { seq: 'asc' },
        select: { seq: true, actor: true, modelRecord: true },
      });
    },

    /** eventEnd of each action (null for steps stored before step keys existed). */
    async getActionEnds(id: string): Promise<Array<number | null>> {
      const rows = await prisma.episodeAction.findMany({
        where: { episodeId: id },
        orderBy: { seq: 'asc' },
        select: { eventEnd: true },
      });
      return rows.map((r) => r.eventEnd);
    },

    async family(row: EpisodeRow): Promise<{ parent: EpisodeSummary | null; forks: EpisodeSummary[] }> {
      const [parent, forks] = await Promise.all([
        row.parentId ? prisma.episode.findUnique({ where: { id: row.parentId } }) : null,
        prisma.episode.findMany({ where: { parentId: row.id }, orderBy: { createdAt: 'asc' }, take: 100 }),
      ]);
      return { parent: parent ? toSummary(parent) : null, forks: forks.map(toSummary) };
    },

    /** The player derived from the turns' actors (server/episodes/provenance.ts). */
    async setPlayer(id: string, player: string): Promise<void> {
      await prisma.episode.update({ where: { id }, data: { player } });
    },

    async setInfraError(id: string, infra: string | null): Promise<void> {
      await prisma.episode.update({ where: { id }, data: { infraError: infra } });
    },

    /** How many events the row says the episode has (null: no such episode). */
    async eventCount(id: string): Promise<number | null> {
      const row = await prisma.episode.findUnique({ where: { id }, select: { eventCount: true } });
      return row?.eventCount ?? null;
    },

    /** Newest first; `cursor` is the id of the last episode of the previous page. */
    async list({ cursor, limit }: { cursor?: string | null; limit: number }) {
      const rows = await prisma.episode.findMany({
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit + 1,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      const page = rows.slice(0, limit);
      return { items: page.map(toSummary), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
    },
  };
}

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
