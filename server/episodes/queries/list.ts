// The inspector's episode list: a filtered, sorted page (with its count), the ids of a filtered
// set (export, [ and ] navigation), the charts over it, and bulk delete. Filters run in SQL on
// indexed columns (filter.ts), the text search through each store's index (search.ts).
import type { Dialect, SqlDb } from '@/server/db/sql';
import { flag, sqlFor } from '@/server/db/dialect';
import type { EpisodeFilter, ListInput } from '@/server/inspector/filters';
import { conditionsOf, filterWhere, orderKeys, orderOf, type Where } from './filter';
import { checkedPageSql, matchingIdsSql, searchQuery } from './search';

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

function toListRow(r: RawRow): EpisodeListRow {
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

export async function listEpisodes(
  db: SqlDb,
  input: ListInput,
  searchCountCap = SEARCH_COUNT_CAP,
): Promise<EpisodeList> {
  const { w, filter } = await filterWhere(db, input.filter);
  const order = orderOf(db.dialect, input.sort, input.dir);
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

/** The episodes page's charts over the finished episodes matching the filter. */
export async function outcomeAggregates(db: SqlDb, filter: EpisodeFilter) {
  const { w } = await filterWhere(db, filter);
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

export type ChartsData = Awaited<ReturnType<typeof outcomeAggregates>>;

/** Ids of every episode matching the filter, in list order (for export and [ ] navigation). */
export async function episodeIds(
  db: SqlDb,
  input: Pick<ListInput, 'filter' | 'sort' | 'dir'>,
  limit = 100_000,
): Promise<string[]> {
  const { w } = await filterWhere(db, input.filter);
  const rows = await db.all<{ id: string }>(
    `SELECT e."id" FROM "Episode" e ${sqlFor(db.dialect).coverHint} ${w.sql} ${orderOf(db.dialect, input.sort, input.dir)} LIMIT ?`,
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
