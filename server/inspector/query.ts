// Episode queries for the inspector: filtered, sorted, paged lists; ids of a filtered set;
// bulk delete. All filters run in SQL on indexed columns.
import type { Sqlite } from './db';
import type { EpisodeFilter, ListInput } from './filters';
import { prepareTextIndex, type TextIndex } from '@/server/episodes/sqlite-store/text-index';
import { ftsQuery, MATCHING_EPISODES_SQL } from './search';

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
  /** imports: the reward this engine gives it (null when not re-scored) */
  rescoredReward: number | null;
}

export interface Where {
  sql: string;
  args: unknown[];
}

/** Prisma (better-sqlite3 adapter) stores DateTime as ISO text "2026-11-30T11:48:41.426+00:00". */
export { sqlDateTime } from '@/server/episodes/sqlite-store/rows';

const textIndexes = new WeakMap<Sqlite, TextIndex>();
/**
 * Makes every committed event searchable (and counted in toolCalls) before a query reads the
 * index: writers leave indexing to a catch-up (server/episodes/sqlite-store/text-index.ts).
 */
export function indexCommitted(db: Sqlite): void {
  let index = textIndexes.get(db);
  if (!index) textIndexes.set(db, (index = prepareTextIndex(db)));
  index.catchUpBeforeQuery();
}
const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

export function whereOf(f: EpisodeFilter): Where {
  const c: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    c.push(sql);
    args.push(...values);
  };
  if (f.env?.length) {
    c.push(`e."envId" IN (${f.env.map(() => '?').join(',')})`);
    args.push(...f.env);
  }
  if (f.dMin !== undefined) add('e."d" >= ?', f.dMin);
  if (f.dMax !== undefined) add('e."d" <= ?', f.dMax);
  if (f.rMin !== undefined) add('e."reward" >= ?', f.rMin);
  if (f.rMax !== undefined) add('e."reward" <= ?', f.rMax);
  if (f.pass === 'pass') c.push(`e."status" = 'done' AND e."isCorrect" = 1`);
  if (f.pass === 'fail') c.push(`e."status" = 'done' AND e."isCorrect" = 0`);
  if (f.pass === 'active') c.push(`e."status" = 'active'`);
  if (f.term?.length) {
    c.push(`e."terminationReason" IN (${f.term.map(() => '?').join(',')})`);
    args.push(...f.term);
  }
  if (f.player) add('e."player" = ?', f.player);
  if (f.run) add('(e."runLabel" = ? OR e."curriculumRunId" = ?)', f.run, f.run);
  if (f.catalog) add('e."catalogId" = ?', f.catalog);
  if (f.origin) add('e."origin" = ?', f.origin);
  if (f.revealed) add('e."goalRevealed" = ?', f.revealed === 'yes' ? 1 : 0);
  if (f.from) add('e."createdAt" >= ?', f.from);
  if (f.to) add('e."createdAt" < ?', nextDay(f.to));
  const fts = f.q ? ftsQuery(f.q) : null;
  if (fts) add(`e."id" IN (${MATCHING_EPISODES_SQL})`, fts);
  return { sql: c.length ? `WHERE ${c.join(' AND ')}` : '', args };
}

const SELECT = `SELECT e."id", e."createdAt", e."envId", e."d", e."seed", e."catalogId", e."status", e."terminationReason",
  e."reward", e."isCorrect", e."turn", e."toolCalls", e."player", e."origin", e."runLabel", e."curriculumRunId", e."goalRevealed",
  json_extract(e."rescored", '$.reward') AS "rescoredReward" FROM "Episode" e`;

type RawRow = Omit<EpisodeListRow, 'isCorrect' | 'goalRevealed'> & {
  isCorrect: number | null;
  goalRevealed: number;
};

export function toListRow(r: RawRow): EpisodeListRow {
  return {
    ...r,
    createdAt: new Date(Date.parse(r.createdAt)).toISOString(),
    isCorrect: r.isCorrect === null ? null : r.isCorrect === 1,
    goalRevealed: r.goalRevealed === 1,
  };
}

/** Counting beyond this is not worth the time on a large store: the page says "10,000+". */
export const COUNT_CAP = 10_000;

/** The narrow index that holds every filter and sort column (see the inspector migration). */
const COVER = 'INDEXED BY "Episode_inspector_cover_idx"';

const NULLABLE = new Set(['reward', 'isCorrect', 'terminationReason']);

/** Ties broken by id so pages never repeat or skip rows; NULLs (active episodes) sort last. */
export function orderOf(sort: string, dir: 'asc' | 'desc'): string {
  const d = dir.toUpperCase();
  return `ORDER BY ${NULLABLE.has(sort) ? `e."${sort}" IS NULL, ` : ''}e."${sort}" ${d}, e."id" ${d}`;
}

export function listEpisodes(db: Sqlite, input: ListInput): { rows: EpisodeListRow[]; total: number; capped: boolean } {
  indexCommitted(db);
  const w = whereOf(input.filter);
  const order = orderOf(input.sort, input.dir);
  // The page's ids come from the narrow covering index; only those 50 wide rows are read.
  const rows = db
    .prepare(
      `${SELECT} WHERE e."id" IN (SELECT e."id" FROM "Episode" e ${COVER} ${w.sql} ${order} LIMIT ? OFFSET ?) ${order}`,
    )
    .all(...w.args, input.size, (input.page - 1) * input.size) as RawRow[];
  const counted = db
    .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM "Episode" e ${COVER} ${w.sql} LIMIT ${COUNT_CAP + 1})`)
    .get(...w.args) as { n: number };
  return { rows: rows.map(toListRow), total: Math.min(counted.n, COUNT_CAP), capped: counted.n > COUNT_CAP };
}

/** Ids of every episode matching the filter, in list order (for export and [ ] navigation). */
export function episodeIds(db: Sqlite, input: Pick<ListInput, 'filter' | 'sort' | 'dir'>, limit = 100_000): string[] {
  indexCommitted(db);
  const w = whereOf(input.filter);
  const order = orderOf(input.sort, input.dir);
  return (
    db.prepare(`SELECT e."id" FROM "Episode" e ${COVER} ${w.sql} ${order} LIMIT ?`).all(...w.args, limit) as Array<{
      id: string;
    }>
  ).map((r) => r.id);
}

/** The episodes before and after one in the list order of a filter (for [ and ]). */
export function neighbours(
  db: Sqlite,
  input: Pick<ListInput, 'filter' | 'sort' | 'dir'>,
  id: string,
): { prev: string | null; next: string | null } {
  const ids = episodeIds(db, input);
  const i = ids.indexOf(id);
  if (i < 0) return { prev: null, next: null };
  return { prev: ids[i - 1] ?? null, next: ids[i + 1] ?? null };
}

/** Deletes episodes (events, actions and index rows go with them). Returns how many. */
export function deleteEpisodes(db: Sqlite, ids: string[]): number {
  const del = db.prepare('DELETE FROM "Episode" WHERE "id" = ?');
  return db.transaction(() => ids.reduce((n, id) => n + del.run(id).changes, 0))();
}
