// The evaluation pool's per-category records (pool-bags.ts builds them, recommend-pool.ts reads them).

import type { FilterColumns } from '../../catalog/filters';
import type { RowLists } from './pool-row-lists';
import type { TermVocab } from './pool-terms';

/** Document frequencies of one set of documents (a category, or its stride sample). */
export interface IdfTable {
  /** number of documents + 1 (the reference), as in similarities() */
  n: number;
  df: Int32Array;
  /** idf of each term for a reference without that term */
  idf: Float64Array;
}

export interface CategoryPool {
  /** this pool's number in the store (the home of the bags it stored) */
  readonly number: number;
  /** indicesInCategory(category) */
  all: readonly number[];
  /** all.length ≤ scan limit: the candidates are the whole category */
  whole: boolean;
  /** the documents idf is computed over: all, or the stride sample */
  docs: ArrayLike<number>;
  /** the category's own term ids (small arrays below stay in cache); terms met later are appended */
  vocab: TermVocab;
  idf: IdfTable;
  /** whole categories: every price ascending, and the distinct brands sorted */
  sortedPrices: number[] | null;
  brands: string[] | null;
  /** the documents' prices ascending (large categories: the candidates' prices are these and a few more) */
  docPrices: Float64Array;
  /** the values of `all` side by side (categories whose bags are all stored here), else null */
  local: Candidates | null;
  /** large categories: the row in `all` of each document */
  docRows: Int32Array | null;
  /** large categories: the catalog's columns at `all` (pool-columns.ts) */
  rows: FilterColumns | null;
  /**
   * Large categories, built with the rows: the documents' values (the stride sample, every
   * reset's candidates), 1 at each document's row, the bag offset and length kept for a row
   * (-1: none yet), and the documents' distinct brand codes and names (sorted).
   */
  sample: Candidates | null;
  docMark: Uint8Array | null;
  rowBag: Int32Array | null;
  rowBagLen: Uint16Array | null;
  docBrands: { codes: Uint8Array; names: string[] } | null;
  /** large categories, with the rows: the rows grouped by brand and by attribute value (pool-row-lists.ts) */
  rowLists: RowLists | null;
}

/**
 * Candidates' values by position, copied next to each other: a category's products are spread
 * over the whole catalog, and reading ten columns at scattered indices costs a cache miss each.
 */
export interface Candidates {
  /** product index per position */
  index: ArrayLike<number>;
  price: Float64Array;
  rating: Float64Array;
  shipDays: Uint8Array;
  brand: Int32Array;
  stock: Uint16Array;
  /** bag offset and length per position (stored bags only) */
  bagAt: Int32Array;
  bagLen: Uint16Array;
  /** product id per position where already known (others are read through the store) */
  ids: (string | undefined)[];
  /** attribute codes per position, copied on first use from `columns` at `rows` */
  attrs: (Int32Array | undefined)[];
  columns: FilterColumns;
  rows: ArrayLike<number>;
  /** the candidates these begin with (a large category's sample): their attribute codes are kept there */
  base: Candidates | null;
}
