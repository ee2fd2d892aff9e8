// Aggregates for the episodes page's charts, over the current filter (finished episodes).
import type { SqlDb } from '@/server/db/sql';
import { outcomeAggregates } from '@/server/episodes/queries';
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
  return outcomeAggregates(db, whereOf(db.dialect, await resolveFailedBy(db, filter, whereOf)));
}
