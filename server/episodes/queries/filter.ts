// The episode list's filter (server/inspector/filters.ts) as SQL over `e`, and its sort: one
// statement for SQLite and PostgreSQL (server/db/dialect.ts has the differences). The text
// search is search.ts's; "failed by" is decided per episode by attribution.ts, so it is turned
// into the ids it names before the WHERE is built.
import type { Dialect, SqlDb } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import { attributeFailure } from '@/server/inspector/attribution';
import type { EpisodeFilter } from '@/server/inspector/filters';
import { indexCommitted } from '@/server/inspector/pg-search';
import { runCondition } from '@/server/inspector/run-keys';
import { rolloutLogs } from '../run-rollouts';
import { matchingEpisodesSql, searchQuery } from './search';

/** A condition over Episode `e`: a `WHERE …` fragment (or a bare condition, as the caller says) and its bound values. */
export interface Where {
  sql: string;
  args: unknown[];
}

/** A filter whose "failed by" was resolved to the episodes it names (whereOf needs them). */
export type ResolvedFilter = EpisodeFilter & { failedByIds?: readonly string[] };

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** The filter's conditions except the text search, ANDed (no WHERE; '' for none). */
export function conditionsOf(f: ResolvedFilter): Where {
  const c: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    c.push(sql);
    args.push(...values);
  };
  const oneOf = (col: string, values: readonly unknown[]) =>
    add(values.length ? `e."${col}" IN (${values.map(() => '?').join(',')})` : '1 = 0', ...values);
  if (f.env?.length) oneOf('envId', f.env);
  if (f.dMin !== undefined) add('e."d" >= ?', f.dMin);
  if (f.dMax !== undefined) add('e."d" <= ?', f.dMax);
  if (f.rMin !== undefined) add('e."reward" >= ?', f.rMin);
  if (f.rMax !== undefined) add('e."reward" <= ?', f.rMax);
  if (f.pass === 'pass') add(`e."status" = 'done' AND e."isCorrect" = TRUE`);
  if (f.pass === 'fail') add(`e."status" = 'done' AND e."isCorrect" = FALSE`);
  if (f.pass === 'active') add(`e."status" = 'active'`);
  if (f.term?.length) oneOf('terminationReason', f.term);
  if (f.player) add('e."player" = ?', f.player);
  if (f.run) {
    const run = runCondition(f.run);
    add(run.sql, ...run.args);
  }
  if (f.turns === 'human') add('e."player" = ?', 'human');
  if (f.catalog) add('e."catalogId" = ?', f.catalog);
  if (f.origin) add('e."origin" = ?', f.origin);
  if (f.revealed) add('e."goalRevealed" = ?', f.revealed === 'yes');
  if (f.from) add('e."createdAt" >= ?', f.from);
  if (f.to) add('e."createdAt" < ?', nextDay(f.to));
  if (f.failedBy) {
    if (!f.failedByIds) throw new Error('the "failed by" filter is resolved first (filterWhere)');
    oneOf('id', f.failedByIds);
  }
  return { sql: c.join(' AND '), args };
}

/** The whole filter as a `WHERE …` ('' for none), the text search included. */
function whereOf(dialect: Dialect, f: ResolvedFilter): Where {
  const plain = conditionsOf(f);
  const c = plain.sql ? [plain.sql] : [];
  const search = f.q ? searchQuery(dialect, f.q) : null;
  if (search) c.push(`e."id" IN (${matchingEpisodesSql(dialect)})`);
  return { sql: c.length ? `WHERE ${c.join(' AND ')}` : '', args: search ? [...plain.args, search] : plain.args };
}

/** "Failed by": at most this many candidates, newest first, are read and attributed. */
const FAILED_BY_CANDIDATES = 5000;

/** The candidates a party needs (an infrastructure failure, a tool's internal error, a scored failure). */
const CANDIDATES: Record<NonNullable<EpisodeFilter['failedBy']>, string> = {
  infrastructure: 'e."infraError" IS NOT NULL',
  environment: `EXISTS (SELECT 1 FROM "EpisodeEvent" ev WHERE ev."episodeId" = e."id" AND ev."kind" = 'tool_call' AND ev."payload" LIKE '%internal error: %')`,
  agent: `e."status" = 'done' AND e."isCorrect" = FALSE`,
  customer: `e."status" = 'done' AND e."isCorrect" = FALSE AND EXISTS (SELECT 1 FROM "EpisodeEvent" ev WHERE ev."episodeId" = e."id" AND ev."kind" = 'world_change')`,
};

/** What attribution.ts reads of the log (a tool call's result stays in the row: it is not needed). */
const ATTRIBUTION_KINDS = ['action_error', 'tool_call', 'answer', 'world_change', 'termination'];

/** The "failed by" filter as the ids of the candidates attribution.ts blames on that party. */
async function resolveFailedBy(db: SqlDb, filter: EpisodeFilter): Promise<ResolvedFilter> {
  const party = filter.failedBy;
  if (!party) return filter;
  const rest = whereOf(db.dialect, { ...filter, failedBy: undefined });
  const ids = await db.all<{ id: string }>(
    `SELECT e."id" FROM "Episode" e ${rest.sql ? `${rest.sql} AND` : 'WHERE'} ${CANDIDATES[party]}
     ORDER BY e."createdAt" DESC LIMIT ${FAILED_BY_CANDIDATES}`,
    rest.args,
  );
  const logs = await rolloutLogs(
    db,
    ids.map((r) => r.id),
    ATTRIBUTION_KINDS,
  );
  return { ...filter, failedByIds: logs.filter((l) => attributeFailure(l).party === party).map((l) => l.id) };
}

/**
 * Before a filtered read: committed events indexed for the search (pg-search.ts), then "failed
 * by" resolved. Answers the filter resolved and its WHERE.
 */
export async function filterWhere(db: SqlDb, f: EpisodeFilter): Promise<{ filter: ResolvedFilter; w: Where }> {
  await indexCommitted(db, Boolean(f.q));
  const filter = await resolveFailedBy(db, f);
  return { filter, w: whereOf(db.dialect, filter) };
}

const NULLABLE = new Set(['reward', 'isCorrect', 'terminationReason']);
const TEXT = new Set(['envId', 'terminationReason', 'player', 'id']);

/**
 * The sort as its keys (`dir`: '' or ' ASC' / ' DESC'). Ties broken by id so pages never repeat
 * or skip rows; NULLs (active episodes) sort last; text byte-wise.
 */
export function orderKeys(dialect: Dialect, sort: string, dir: 'asc' | 'desc'): Array<{ expr: string; dir: string }> {
  const d = ` ${dir.toUpperCase()}`;
  const col = (c: string) => (TEXT.has(c) ? sqlFor(dialect).bytewise(`e."${c}"`) : `e."${c}"`);
  return [
    ...(NULLABLE.has(sort) ? [{ expr: `e."${sort}" IS NULL`, dir: '' }] : []),
    { expr: col(sort), dir: d },
    { expr: col('id'), dir: d },
  ];
}

/** The sort as an ORDER BY. */
export const orderOf = (dialect: Dialect, sort: string, dir: 'asc' | 'desc') =>
  `ORDER BY ${orderKeys(dialect, sort, dir)
    .map((k) => `${k.expr}${k.dir}`)
    .join(', ')}`;
