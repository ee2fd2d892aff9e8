// The few places where the inspector's SQL differs between SQLite and PostgreSQL. Everything
// else (filters, sorts, aggregates, compare) is one statement for both.
import type { Dialect } from './sql';

const sqlite = {
  /** a number inside a JSON text column, or NULL */
  jsonNumber: (c: string, k: string) => `json_extract(${c}, '$.${k}')`,
  /** the "part" of each entry of a JSON column's "differs" list, comma separated, or NULL */
  differingParts: (c: string) =>
    `(SELECT group_concat(json_extract(j.value, '$.part'), ',') FROM json_each(${c}, '$.differs') j)`,
  /** makes text sort byte-wise, as SQLite's BINARY collation does (PostgreSQL sorts by locale otherwise) */
  bytewise: (e: string) => e,
  /** SQLite: use the narrow covering index for the list (its planner would pick a wider one) */
  coverHint: 'INDEXED BY "Episode_inspector_cover_idx"',
  /** SQLite: for a sort by date, walk the date index (the page is found early); otherwise the covering index */
  dateOrderHint: (sort: string): string =>
    sort === 'createdAt' ? 'INDEXED BY "Episode_createdAt_idx"' : 'INDEXED BY "Episode_inspector_cover_idx"',
  /** SQLite: check a matching episode's filters through the index of its id and filter columns, not its wide row */
  filterByIdHint: 'INDEXED BY "Episode_search_filter_idx"',
};

const postgresql: typeof sqlite = {
  jsonNumber: (c, k) => `(${c}::jsonb ->> '${k}')::float8`,
  differingParts: (c) => `(SELECT string_agg(x ->> 'part', ',') FROM jsonb_array_elements(${c}::jsonb -> 'differs') x)`,
  bytewise: (e) => `${e} COLLATE "C"`,
  coverHint: '',
  dateOrderHint: () => '',
  filterByIdHint: '',
};

export const sqlFor = (d: Dialect): typeof sqlite => (d === 'sqlite' ? sqlite : postgresql);

/** A boolean column as read back: SQLite gives 0/1, PostgreSQL true/false. */
export const flag = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === true || v === 1);
