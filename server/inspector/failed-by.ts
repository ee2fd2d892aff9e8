// The /episodes filter "failed by" (issue 30): infrastructure, environment, agent or customer, as
// attribution.ts decides from each episode's log. The SQL picks the candidates a party needs
// (an infrastructure failure, a tool's internal error, a scored failure); attribution.ts keeps
// those it blames on that party. Newest first, at most FAILED_BY_CANDIDATES are checked.
import type { Dialect, SqlDb } from '@/server/db/sql';
import { rolloutLogs } from '@/server/episodes/run-rollouts';
import { attributeFailure } from './attribution';
import type { EpisodeFilter } from './filters';

export const FAILED_BY_CANDIDATES = 5000;

/** A filter whose "failed by" was resolved to the episodes it names (whereOf needs them). */
export type ResolvedFilter = EpisodeFilter & { failedByIds?: readonly string[] };

const CANDIDATES: Record<NonNullable<EpisodeFilter['failedBy']>, string> = {
  infrastructure: 'e."infraError" IS NOT NULL',
  environment: `EXISTS (SELECT 1 FROM "EpisodeEvent" ev WHERE ev."episodeId" = e."id" AND ev."kind" = 'tool_call' AND ev."payload" LIKE '%internal error: %')`,
  agent: `e."status" = 'done' AND e."isCorrect" = FALSE`,
  customer: `e."status" = 'done' AND e."isCorrect" = FALSE AND EXISTS (SELECT 1 FROM "EpisodeEvent" ev WHERE ev."episodeId" = e."id" AND ev."kind" = 'world_change')`,
};

/** What attribution.ts reads of the log (a tool call's result stays in the row: it is not needed). */
const KINDS = ['action_error', 'tool_call', 'answer', 'world_change', 'termination'];

export async function resolveFailedBy(
  db: SqlDb,
  filter: EpisodeFilter,
  where: (dialect: Dialect, f: ResolvedFilter) => { sql: string; args: unknown[] },
): Promise<ResolvedFilter> {
  const party = filter.failedBy;
  if (!party) return filter;
  const rest = where(db.dialect, { ...filter, failedBy: undefined });
  const ids = await db.all<{ id: string }>(
    `SELECT e."id" FROM "Episode" e ${rest.sql ? `${rest.sql} AND` : 'WHERE'} ${CANDIDATES[party]}
     ORDER BY e."createdAt" DESC LIMIT ${FAILED_BY_CANDIDATES}`,
    rest.args,
  );
  const logs = await rolloutLogs(
    db,
    ids.map((r) => r.id),
    KINDS,
  );
  return { ...filter, failedByIds: logs.filter((l) => attributeFailure(l).party === party).map((l) => l.id) };
}
