// Episode's parentId, runId and curriculumRunId indexes are partial (WHERE col IS NOT NULL,
// migration 20261201160000_null_column_partial_indexes): trainer episodes, most of a store, leave
// all three NULL and no longer add an entry to each at every reset. What must hold: the indexes
// hold only rows that have a value, and every query that looked rows up by these columns still
// uses its index (the SQL below is what Prisma sends for those calls, parameters bound).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigratedSqlite } from '@/server/lib/test/migrated-sqlite';
import { sqliteSqlDb, sqliteTimestamp as sqlDateTime } from '@/server/db/sql';
import { episodeStatements, type EpisodeInsert } from './writer';

const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-null-idx-'));
const file = path.join(dir, 'store.db');
copyMigratedSqlite(file);
const db = new Database(file);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const TRAINER_ROWS = 300;
beforeAll(async () => {
  const sql = sqliteSqlDb(db);
  const writes = episodeStatements(sql);
  const now = sqlDateTime(new Date('2026-12-01T12:00:00Z'));
  db.prepare(
    `INSERT INTO "CurriculumRun" ("id","createdAt","updatedAt","name","collection","seed","catalogId","state") VALUES ('cr1',?,?,'c','C1',1,'cat','{}')`,
  ).run(now, now);
  const row = (id: string, extra: Partial<EpisodeInsert>) =>
    writes.newEpisode(
      {
        id,
        createdAt: new Date(now),
        envId: 'PD',
        d: 1,
        seed: 1,
        axisOverrides: '{}',
        axes: '{}',
        weights: null,
        catalogId: 'cat',
        player: 'trainer:x',
        turn: 0,
        status: 'active',
        terminationReason: null,
        reward: null,
        isCorrect: null,
        breakdown: null,
        hiddenGoal: '{}',
        eventCount: 1,
        ...extra,
      },
      [],
    );
  await sql.batch([
    ...Array.from({ length: TRAINER_ROWS }, (_, i) => row(`ep_t${String(i).padStart(4, '0')}`, {})).flat(),
    ...row('ep_parent', { runId: 'run1' }),
    ...row('ep_fork', { parentId: 'ep_parent', runId: 'run1' }),
    ...row('ep_curr', { curriculumRunId: 'cr1' }),
  ]);
});

const INDEXES = ['Episode_parentId_idx', 'Episode_runId_idx', 'Episode_curriculumRunId_idx'];

/** Rows an index holds (its leaf cells). */
const entries = (index: string) =>
  (
    db.prepare(`SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'`).get(index) as {
      n: number;
    }
  ).n;

/** The index a statement's plan searches Episode with (null: none, e.g. a full scan). */
function indexUsed(sql: string, params: unknown[]): string | null {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  const search = plan
    .map((p) => /SEARCH (?:main\.)?Episode USING (?:COVERING )?INDEX (\w+)/.exec(p.detail))
    .find(Boolean);
  return search?.[1] ?? null;
}

// Prisma's SQL for the lookups by these columns (server/episodes/store.ts forks list,
// server/models/runs.ts runStats and flippedTasks, server/curriculum/store.ts outcomes,
// recentEpisodes and its count); the selected columns do not change the plan.
const LOOKUPS: [string, string, unknown[]][] = [
  [
    'Episode_parentId_idx',
    `SELECT "main"."Episode"."id" FROM "main"."Episode" WHERE "main"."Episode"."parentId" = ? ORDER BY "main"."Episode"."createdAt" ASC LIMIT ? OFFSET ?`,
    ['ep_parent', 100, 0],
  ],
  [
    'Episode_runId_idx',
    `SELECT "main"."Episode"."envId" FROM "main"."Episode" WHERE "main"."Episode"."runId" = ?`,
    ['run1'],
  ],
  [
    'Episode_runId_idx',
    `SELECT "main"."Episode"."id" FROM "main"."Episode" WHERE ("main"."Episode"."runId" = ? AND "main"."Episode"."status" = ? AND "main"."Episode"."infraError" IS NULL)`,
    ['run1', 'done'],
  ],
  [
    'Episode_curriculumRunId_idx',
    `SELECT "main"."Episode"."reward" FROM "main"."Episode" WHERE ("main"."Episode"."curriculumRunId" = ? AND "main"."Episode"."status" = ?) ORDER BY "main"."Episode"."createdAt" ASC, "main"."Episode"."id" ASC`,
    ['cr1', 'done'],
  ],
  [
    'Episode_curriculumRunId_idx',
    `SELECT "main"."Episode"."id" FROM "main"."Episode" WHERE "main"."Episode"."curriculumRunId" = ? ORDER BY "main"."Episode"."createdAt" DESC, "main"."Episode"."id" DESC LIMIT ? OFFSET ?`,
    ['cr1', 20, 0],
  ],
  [
    'Episode_curriculumRunId_idx',
    `SELECT COUNT(*) FROM (SELECT "main"."Episode"."id" FROM "main"."Episode" WHERE "main"."Episode"."curriculumRunId" = ? LIMIT ? OFFSET ?) AS "sub"`,
    ['cr1', -1, 0],
  ],
  // a list of ids (Prisma's relation loads): IN implies IS NOT NULL too
  ['Episode_parentId_idx', `SELECT "id" FROM "Episode" WHERE "parentId" IN (?, ?)`, ['ep_parent', 'ep_x']],
];

describe('the partial indexes on Episode columns trainer rows leave NULL', () => {
  it('are partial (WHERE col IS NOT NULL) and hold only the rows that have a value', () => {
    for (const name of INDEXES) {
      const sql = (db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name) as { sql: string }).sql;
      expect(sql, name).toMatch(/WHERE "\w+" IS NOT NULL$/);
    }
    expect(db.prepare(`SELECT count(*) FROM "Episode"`).pluck().get()).toBe(TRAINER_ROWS + 3);
    expect(INDEXES.map(entries)).toEqual([1, 2, 1]);
  });

  it.each(LOOKUPS)('%s serves the lookup %s', (index, sql, params) => {
    expect(indexUsed(sql, params)).toBe(index);
  });

  it('the lookups return the rows that have the value', () => {
    expect(
      db
        .prepare(LOOKUPS[0][1])
        .pluck()
        .all(...LOOKUPS[0][2]),
    ).toEqual(['ep_fork']);
    expect(
      db
        .prepare(LOOKUPS[1][1])
        .pluck()
        .all(...LOOKUPS[1][2]),
    ).toHaveLength(2);
    expect(
      db
        .prepare(LOOKUPS[4][1])
        .pluck()
        .all(...LOOKUPS[4][2]),
    ).toEqual(['ep_curr']);
  });

  it('deleting a curriculum run still clears its episodes (ON DELETE SET NULL through the partial index)', () => {
    db.prepare(`DELETE FROM "CurriculumRun" WHERE "id" = 'cr1'`).run();
    expect(db.prepare(`SELECT "curriculumRunId" FROM "Episode" WHERE "id" = 'ep_curr'`).pluck().get()).toBeNull();
    expect(entries('Episode_curriculumRunId_idx')).toBe(0);
  });
});
