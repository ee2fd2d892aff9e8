// Aggregates for the episodes page's charts, over the current filter (finished episodes).
import type { Sqlite } from './db';
import type { EpisodeFilter } from './filters';
import { indexCommitted, whereOf } from './query';

export interface ChartsData {
  /** pass rate and mean reward per env × d */
  heatmap: Array<{ envId: string; d: number; n: number; passRate: number; meanReward: number }>;
  /** mean reward components per d */
  componentsByD: Array<{ d: number; n: number; rTask: number; rEff: number; rHall: number; total: number }>;
  turns: Array<{ value: number; n: number }>;
  toolCalls: Array<{ value: number; n: number }>;
}

export function chartsData(db: Sqlite, filter: EpisodeFilter): ChartsData {
  indexCommitted(db);
  const w = whereOf(filter);
  const where = `${w.sql ? `${w.sql} AND` : 'WHERE'} e."status" = 'done'`;
  const heatmap = db
    .prepare(
      `SELECT e."envId" envId, e."d" d, count(*) n, avg(coalesce(e."isCorrect", 0)) passRate, avg(e."reward") meanReward FROM "Episode" e ${where} GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .all(...w.args) as ChartsData['heatmap'];
  const componentsByD = db
    .prepare(
      `SELECT e."d" d, count(*) n, avg(json_extract(e."breakdown", '$.rTask')) rTask, avg(json_extract(e."breakdown", '$.rEff')) rEff,
        avg(json_extract(e."breakdown", '$.rHall')) rHall, avg(e."reward") total
       FROM "Episode" e ${where} AND e."breakdown" IS NOT NULL GROUP BY 1 ORDER BY 1`,
    )
    .all(...w.args) as ChartsData['componentsByD'];
  const hist = (col: 'turn' | 'toolCalls') =>
    db
      .prepare(`SELECT e."${col}" value, count(*) n FROM "Episode" e ${where} GROUP BY 1 ORDER BY 1`)
      .all(...w.args) as Array<{ value: number; n: number }>;
  return { heatmap, componentsByD, turns: hist('turn'), toolCalls: hist('toolCalls') };
}
