// Episode queries for the inspector: filtered, sorted, paged lists; ids of a filtered set;
// bulk delete. All filters run in SQL on indexed columns; the same statements on SQLite and
// PostgreSQL (dialect.ts has the differences).
import type { Dialect, SqlDb } from '@/server/db/sql';
import { flag, sqlFor } from '@/server/db/dialect';
import type { Where } from '@/server/episodes/queries';
import type { ListInput } from './filters';
import { indexCommitted } from './pg-search';
import { checkedPageSql, matchingEpisodesSql, matchingIdsSql, searchQuery } from './search';
import { runCondition } from './run-keys';
import { resolveFailedBy, type ResolvedFilter } from './failed-by';

export interface EpisodeListRow {
  id: string;
  createdAt: string;
  envId: string;
  d: number;
  seed: number;
  catalogId: string;
  status: string;
  terminationReason: string | null;
  reward: number | null;
  isCorrect: boolean | null;
  turn: number;
  toolCalls: number;
  player: string;
  origin: string;
  runLabel: string | null;
  curriculumRunId: string | null;
  goalRevealed: boolean;
  /** a model turn failed in the infrastructure (the episode is not scored) */
  infra: boolean;
  /** imports: the reward this engine gives it (null when not re-scored) */
  rescoredReward: number | null;
  /** imports: the reward parts whose re-score differs from the recorded value, comma separated (null: none) */
  rescoredDiffers: string | null;
}

export interface EpisodeList {
  rows: EpisodeListRow[];
  total: number;
  capped: boolean;
}

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** The filter's conditions except the text search, ANDed (no WHERE; '' for none). */
function conditionsOf(f: ResolvedFilter): Where {
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
    if (!f.failedByIds) throw new Error('the "failed by" filter is resolved first (resolveFailedBy)');
    oneOf('id', f.failedByIds);
  }
  return { sql: c.join(' AND '), args };
}

export function whereOf(dialect: Dialect, f: ResolvedFilter): Where {
  const plain = conditionsOf(f);
  const c = plain.sql ? [plain.sql] : [];
  const search = f.q ? searchQuery(dialect, f.q) : null;
  if (search) c.push(`e."id" IN (${matchingEpisodesSql(dialect)})`);
  return { sql: c.length ? `WHERE ${c.join(' AND ')}` : '', args: search ? [...plain.args, search] : plain.args };
}

const selectRows = (
  dialect: Dialect,
) => `SELECT e."id", e."createdAt", e."envId", e."d", e."seed", e."catalogId", e."status", e."terminationReason",
  e."reward", e."isCorrect", e."turn", e."toolCalls", e."player", e."origin", e."runLabel", e."curriculumRunId", e."goalRevealed",
  CASE WHEN e."infraError" IS NULL THEN 0 ELSE 1 END AS "infra", ${sqlFor(dialect).jsonNumber('e."rescored"', 'reward')} AS "rescoredReward",
  ${sqlFor(dialect).differingParts('e."rescored"')} AS "rescoredDiffers" FROM "Episode" e`;

type RawRow = Omit<EpisodeListRow, 'isCorrect' | 'goalRevealed' | 'infra'> & {
  isCorrect: number | boolean | null;
  infra: number;
  goalRevealed: number | boolean;
};

export function toListRow(r: RawRow): EpisodeListRow {
  return {
    ...r,
    createdAt: new Date(Date.parse(r.createdAt)).toISOString(),
    isCorrect: flag(r.isCorrect),
    goalRevealed: flag(r.goalRevealed) === true,
    infra: Number(r.infra) === 1,
  };
}

/** Counting beyond this is not worth the time on a large store: the page says "10,000+". */
export const COUNT_CAP = 10_000;
/**
 * A text search counts to here ("1,000+"): a common word matches most episodes through hundreds
 * of thousands of events, and the count streams them (search.ts) until it has this many.
 */
export const SEARCH_COUNT_CAP = 1_000;

const NULLABLE = new Set(['reward', 'isCorrect', 'terminationReason']);
const TEXT = new Set(['envId', 'terminationReason', 'player', 'id']);

/** Ties broken by id so pages never repeat or skip rows; NULLs (active episodes) sort last; text byte-wise. */
export function orderOf(dialect: Dialect, sort: string, dir: 'asc' | 'desc'): string {
  return `ORDER BY ${orderKeys(dialect, sort, dir)
    .map((k) => `${k.expr}${k.dir}`)
    .join(', ')}`;
}

/** The sort as its keys (`dir`: '' or ' ASC' / ' DESC'), for a query that orders by them as columns. */
export function orderKeys(dialect: Dialect, sort: string, dir: 'asc' | 'desc'): Array<{ expr: string; dir: string }> {
  const d = ` ${dir.toUpperCase()}`;
  const col = (c: string) => (TEXT.has(c) ? sqlFor(dialect).bytewise(`e."${c}"`) : `e."${c}"`);
  return [
    ...(NULLABLE.has(sort) ? [{ expr: `e."${sort}" IS NULL`, dir: '' }] : []),
    { expr: col(sort), dir: d },
    { expr: col('id'), dir: d },
  ];
}

/** The filter's WHERE and ORDER BY, after committed events are indexed (pg-search.ts). */
async function prepare(db: SqlDb, input: Pick<ListInput, 'filter' | 'sort' | 'dir'>) {
  await indexCommitted(db, Boolean(input.filter.q));
  const filter = await resolveFailedBy(db, input.filter, whereOf);
  return { w: whereOf(db.dialect, filter), order: orderOf(db.dialect, input.sort, input.dir), filter };
}

export async function listEpisodes(
  db: SqlDb,
  input: ListInput,
  searchCountCap = SEARCH_COUNT_CAP,
): Promise<EpisodeList> {
  const { w, order, filter } = await prepare(db, input);
  const search = input.filter.q ? searchQuery(db.dialect, input.filter.q) : null;
  const cover = sqlFor(db.dialect).coverHint;
  const page = [input.size, (input.page - 1) * input.size];
  const read = (on: SqlDb, from: string, where: Where) =>
    on.all<RawRow>(
      `${selectRows(db.dialect)} WHERE e."id" IN (SELECT e."id" FROM "Episode" e ${from} ${where.sql} ${order} LIMIT ? OFFSET ?) ${order}`,
      [...where.args, ...page],
    );
  if (search) {
    // Up to the cap, the matching ids themselves: the page is read from them by id. Past it, a
    // common word: in date order the date index is walked and the page found early.
    const plain = conditionsOf(filter);
    const searchPage = async (on: SqlDb) => {
      const hits = await on.all<{ id: string }>(matchingIdsSql(db.dialect, plain.sql, searchCountCap), [
        search,
        ...plain.args,
      ]);
      const capped = hits.length > searchCountCap;
      // Past the cap the page is read in list order: on PostgreSQL a query of several words checks
      // only the page's candidates inside one event (search.ts, checkedPageSql).
      const rows = !capped
        ? hits.length
          ? await read(on, '', {
              sql: `WHERE e."id" IN (${hits.map(() => '?').join(',')})`,
              args: hits.map((h) => h.id),
            })
          : []
        : db.dialect === 'postgresql' && /&|<->/.test(search)
          ? await on.all<RawRow>(
              `${selectRows(db.dialect)} WHERE e."id" IN (${checkedPageSql(plain.sql, orderKeys(db.dialect, input.sort, input.dir))}) ${order}`,
              [search, ...plain.args, ...page],
            )
          : await read(on, sqlFor(db.dialect).dateOrderHint(input.sort), w);
      return { rows: rows.map(toListRow), total: Math.min(hits.length, searchCountCap), capped };
    };
    if (db.dialect === 'sqlite') return searchPage(db);
    // PostgreSQL would read a common word's episodes by scanning every episode's words (each row
    // a few KB out of line: 3.4 s at 100,000) where the GIN index answers without reading them.
    return db.transaction(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      return searchPage(tx);
    });
  }
  // The page's ids come from the narrow covering index; only those 50 wide rows are read.
  const rows = await read(db, cover, w);
  const counted = (await db.get<{ n: number }>(
    `SELECT count(*) AS "n" FROM (SELECT 1 FROM "Episode" e ${cover} ${w.sql} LIMIT ${COUNT_CAP + 1}) AS matching`,
    w.args,
  ))!;
  return {
    rows: rows.map(toListRow),
    total: Math.min(counted.n, COUNT_CAP),
    capped: counted.n > COUNT_CAP,
  };
}

/** Ids of every episode matching the filter, in list order (for export and [ ] navigation). */
export async function episodeIds(
  db: SqlDb,
  input: Pick<ListInput, 'filter' | 'sort' | 'dir'>,
  limit = 100_000,
): Promise<string[]> {
  const { w, order } = await prepare(db, input);
  const rows = await db.all<{ id: string }>(
    `SELECT e."id" FROM "Episode" e ${sqlFor(db.dialect).coverHint} ${w.sql} ${order} LIMIT ?`,
    [...w.args, limit],
  );
  return rows.map((r) => r.id);
}

/** The episodes before and after one in the list order of a filter (for [ and ]). */
export async function neighbours(
  db: SqlDb,
  input: Pick<ListInput, 'filter' | 'sort' | 'dir'>,
  id: string,
): Promise<{ prev: string | null; next: string | null }> {
  const ids = await episodeIds(db, input);
  const i = ids.indexOf(id);
  if (i < 0) return { prev: null, next: null };
  return { prev: ids[i - 1] ?? null, next: ids[i + 1] ?? null };
}

/** Deletes episodes (events, actions and index rows go with them). Returns how many. */
export function deleteEpisodes(db: SqlDb, ids: string[]): Promise<number> {
  return db.transaction(async (tx) => {
    let n = 0;
    for (const id of ids) n += await tx.run('DELETE FROM "Episode" WHERE "id" = ?', [id]);
    return n;
  });
}
