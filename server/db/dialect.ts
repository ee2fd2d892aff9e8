// The few places where the inspector's SQL differs between SQLite and PostgreSQL. Everything
// else (filters, sorts, aggregates, compare) is one statement for both.
import type { Dialect } from './sql';

export interface SqlDialect {
  /** a number inside a JSON text column, or NULL */
  jsonNumber(column: string, key: string): string;
  /** the "part" of each entry of a JSON column's "differs" list, comma separated, or NULL */
  differingParts(column: string): string;
  /** makes text sort byte-wise, as SQLite's BINARY collation does (PostgreSQL sorts by locale otherwise) */
  bytewise(expr: string): string;
  /** SQLite: use the narrow covering index for the list (its planner would pick a wider one) */
  coverHint: string;
  /** SQLite: for a sort by date, walk the date index (the page is found early); otherwise the covering index */
  dateOrderHint(sort: string): string;
  /** SQLite: check a matching episode's filters through the index of its id and filter columns, not its wide row */
  filterByIdHint: string;
}

const sqlite: SqlDialect = {
  jsonNumber: (c, k) => `json_extract(${c}, '$.${k}')`,
  differingParts: (c) =>
    `(SELECT group_concat(json_extract(j.value, '$.part'), ',') FROM json_each(${c}, '$.differs') j)`,
  bytewise: (e) => e,
  coverHint: 'INDEXED BY "Episode_inspector_cover_idx"',
  dateOrderHint: (sort) =>
    sort === 'createdAt' ? 'INDEXED BY "Episode_createdAt_idx"' : 'INDEXED BY "Episode_inspector_cover_idx"',
  filterByIdHint: 'INDEXED BY "Episode_search_filter_idx"',
};

const postgresql: SqlDialect = {
  jsonNumber: (c, k) => `(${c}::jsonb ->> '${k}')::float8`,
  differingParts: (c) => `(SELECT string_agg(x ->> 'part', ',') FROM jsonb_array_elements(${c}::jsonb -> 'differs') x)`,
  bytewise: (e) => `${e} COLLATE "C"`,
  coverHint: '',
  dateOrderHint: () => '',
  filterByIdHint: '',
};

export const sqlFor = (d: Dialect): SqlDialect => (d === 'sqlite' ? sqlite : postgresql);

/** A boolean column as read back: SQLite gives 0/1, PostgreSQL true/false. */
export const flag = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === true || v === 1);
