// Aggregates for the episodes page's charts, over the current filter (finished episodes).
import type { SqlDb } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import type { EpisodeFilter } from './filters';
import { indexCommitted } from './pg-search';
import { whereOf } from './query';
import { resolveFailedBy } from './failed-by';

export interface ChartsData {
  /** pass rate and mean reward per env × d */
  heatmap: Array<{ envId: string; d: number; n: number; passRate: number; meanReward: number }>;
  /** mean reward components per d */
  componentsByD: Array<{ d: number; n: number; rTask: number; rEff: number; rHall: number; total: number }>;
  turns: Array<{ value: number; n: number }>;
  toolCalls: Array<{ value: number; n: number }>;
}

export async function chartsData(db: SqlDb, filter: EpisodeFilter): Promise<ChartsData> {
  await indexCommitted(db, Boolean(filter.q));
  const w = whereOf(db.dialect, await resolveFailedBy(db, filter, whereOf));
  const where = `${w.sql ? `${w.sql} AND` : 'WHERE'} e."status" = 'done'`;
  const part = (key: string) => `avg(${sqlFor(db.dialect).jsonNumber('e."breakdown"', key)}) AS "${key}"`;
  const heatmap = await db.all<ChartsData['heatmap'][number]>(
    `SELECT e."envId" AS "envId", e."d" AS "d", count(*) AS "n",
       avg(CASE WHEN e."isCorrect" = TRUE THEN 1.0 ELSE 0.0 END) AS "passRate", avg(e."reward") AS "meanReward"
     FROM "Episode" e ${where} GROUP BY 1, 2 ORDER BY ${sqlFor(db.dialect).bytewise('e."envId"')}, e."d"`,
    w.args,
  );
  const componentsByD = await db.all<ChartsData['componentsByD'][number]>(
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
