// A large category's rows grouped by the value of one column — its brand, or one attribute —
// each group ascending (issue 13, 2M products). The filtered search of a PD/SUB reset takes the
// first FULL_LIMIT rows meeting every constraint; when the constraints are strict it walked the
// whole category (~29k rows at 2M) to find fewer. A constraint naming one brand or one attribute
// value accepts only rows of that group, so the search walks the shortest such group instead:
// the same rows in the same order, over a few hundred or thousand rows whatever the catalog size.

import type { FilterColumns } from '../../catalog/filters';
import type { IndexColumn } from '../../catalog/columns';
import type { SearchFilters } from '../../catalog/types';

interface Groups {
  /** rows of code v are rows[start[v]] … rows[start[v + 1] - 1], ascending */
  start: Int32Array;
  rows: Uint16Array | Int32Array;
}

/** Column key of the brand in RowLists (attributes are their column numbers, ≥ 0). */
const BRAND = -1;

export class RowLists {
  /** per column key, built on the first filter that names it (one counting sort, ~0.1 ms at 2M) */
  private readonly groups = new Map<number, Groups>();

  constructor(private readonly rows: FilterColumns) {}

  /** The rows holding code v in the column (BRAND, or an attribute column), ascending. */
  of(column: number, v: number): Uint16Array | Int32Array {
    let g = this.groups.get(column);
    if (!g) this.groups.set(column, (g = this.group(column)));
    return v + 1 < g.start.length ? g.rows.subarray(g.start[v], g.start[v + 1]) : g.rows.subarray(0, 0);
  }

  /**
   * The shortest group that holds every row `filters` can accept — the rows of the one brand, or
   * of the one attribute value, a constraint names — or null when no constraint names a single
   * brand or attribute value (then every row is a candidate).
   */
  narrowest(filters: SearchFilters): Uint16Array | Int32Array | null {
    const cols = this.rows;
    let best: Uint16Array | Int32Array | null = null;
    const consider = (column: number, table: readonly string[], raw: unknown, codeOf: (index: number) => number) => {
      if (raw === undefined || raw === null) return;
      const index = this.onlyMatch(column, table, String(raw));
      if (index < 0) return; // none: the filter is empty; several: a union (not worth it)
      const list = this.of(column, codeOf(index));
      if (!best || list.length < best.length) best = list;
    };
    const f = filters as Record<string, unknown>;
    for (const key of Object.keys(f)) {
      if (key === 'brand') consider(BRAND, cols.brandTable, f[key], (index) => index);
      else {
        const a = cols.attrNames.indexOf(key);
        if (a >= 0) consider(a, cols.attrTables[a], f[key], (index) => index + 1); // attribute codes: 0 = none
      }
    }
    return best;
  }

  /** per column key, its string table lower-cased (filters.ts compares values case-insensitively) */
  private readonly lowered = new Map<number, string[]>();

  /** The one table index matchingIndices (filters.ts) gives for value, or -1 when it gives none or several. */
  private onlyMatch(column: number, table: readonly string[], value: string): number {
    let lower = this.lowered.get(column);
    if (!lower) this.lowered.set(column, (lower = table.map((entry) => entry.toLowerCase())));
    const v = value.trim().toLowerCase();
    const first = lower.indexOf(v);
    return first >= 0 && lower.indexOf(v, first + 1) < 0 ? first : -1;
  }

  private group(column: number): Groups {
    const values: IndexColumn = column === BRAND ? this.rows.brand : this.rows.attrCols[column];
    const n = this.rows.size;
    let codes = 0;
    for (let p = 0; p < n; p++) if (values[p] >= codes) codes = values[p] + 1;
    const start = new Int32Array(codes + 1);
    for (let p = 0; p < n; p++) start[values[p] + 1]++;
    for (let v = 0; v < codes; v++) start[v + 1] += start[v];
    const rows = n <= 0x10000 ? new Uint16Array(n) : new Int32Array(n);
    const next = start.slice(0, codes);
    for (let p = 0; p < n; p++) rows[next[values[p]]++] = p;
    return { start, rows };
  }
}
