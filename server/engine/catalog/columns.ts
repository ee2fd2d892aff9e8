// Columnar product storage: one typed array per field plus string tables, so two
// million products cost tens of bytes each instead of a JS object each.
// A Product object is built on demand (ColumnarCatalog.at/get).

export type IndexColumn = Uint8Array | Uint16Array | Uint32Array;

export interface CatalogColumns {
  size: number;
  /** Leaf category paths; category[i] indexes this table. */
  categoryTable: string[];
  category: IndexColumn;
  brandTable: string[];
  brand: IndexColumn;
  storeTable: string[];
  store: IndexColumn;
  /** Price in cents (exact money, no float drift). */
  priceCents: Uint32Array;
  /** Rating × 10 (ratings have one decimal). */
  rating10: Uint8Array;
  ratingCount: Uint32Array;
  shipDays: Uint8Array;
  stock: Uint16Array;
  /** Attribute names; attrCols[a][i] = 1 + index into attrTables[a], or 0 when absent. */
  attrNames: string[];
  attrTables: string[][];
  attrCols: IndexColumn[];
  /** Per attribute: true when values are numbers in Product.attrs. */
  attrNumeric: boolean[];
}

/** Smallest unsigned typed array able to hold indices below `limit`. */
export function indexColumn(length: number, limit: number): IndexColumn {
  if (limit <= 0xff) return new Uint8Array(length);
  if (limit <= 0xffff) return new Uint16Array(length);
  return new Uint32Array(length);
}

/** String → dense index, first-seen order. */
export class Interner {
  readonly list: string[] = [];
  private readonly map = new Map<string, number>();
  constructor(initial: readonly string[] = []) {
    for (const s of initial) this.id(s);
  }
  id(s: string): number {
    let i = this.map.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.map.set(s, i);
    }
    return i;
  }
  has(s: string): boolean {
    return this.map.has(s);
  }
}

/** Numeric value of every entry of an attribute table (NaN when not a number). */
export function numericTable(table: readonly string[]): Float64Array {
  const out = new Float64Array(table.length);
  for (let i = 0; i < table.length; i++) out[i] = parseFloat(table[i]);
  return out;
}

/** Copy a column into the smallest array type that fits its values. */
export function compactColumn(src: ArrayLike<number>, length: number, limit: number): IndexColumn {
  const out = indexColumn(length, limit);
  for (let i = 0; i < length; i++) out[i] = src[i];
  return out;
}
