// Save and load a whole catalog (columns + BM25 index + texts) as one binfile.
// Used by the synthetic disk cache (cache.ts) and by imported catalogs (import.ts).

import type { CatalogColumns, IndexColumn } from './columns';
import { ColumnarCatalog } from './columnar-catalog';
import { StoredText, type StoredTexts } from './from-products';
import type { SearchIndexData } from './search-index';
import { syntheticCatalogFrom, type SyntheticColumns } from './synthetic';
import { packStrings, readBinFile, unpackStrings, writeBinFile, type BinFile, type TypedArray } from './binfile';

interface CatalogFileMeta {
  kind: 'synthetic' | 'stored';
  id: string;
  size: number;
  seed?: number;
  fingerprint: string;
  categoryTable: string[];
  brandTable: string[];
  storeTable: string[];
  attrNames: string[];
  attrTables: string[][];
  attrNumeric: boolean[];
  terms: string[];
  /** free-form, e.g. the import report */
  info?: unknown;
}

const SEP = '\u001f';

function columnSections(cols: CatalogColumns, index: SearchIndexData): Record<string, TypedArray> {
  const s: Record<string, TypedArray> = {
    'col.category': cols.category,
    'col.brand': cols.brand,
    'col.store': cols.store,
    'col.priceCents': cols.priceCents,
    'col.rating10': cols.rating10,
    'col.ratingCount': cols.ratingCount,
    'col.shipDays': cols.shipDays,
    'col.stock': cols.stock,
    'idx.offsets': index.offsets,
    'idx.docs': index.docs,
    'idx.impacts': index.impacts,
    'idx.maxImpact': index.maxImpact,
  };
  cols.attrCols.forEach((c, a) => (s[`attr.${a}`] = c));
  return s;
}

function baseMeta(cols: CatalogColumns, index: SearchIndexData) {
  return {
    size: cols.size,
    categoryTable: cols.categoryTable,
    brandTable: cols.brandTable,
    storeTable: cols.storeTable,
    attrNames: cols.attrNames,
    attrTables: cols.attrTables,
    attrNumeric: cols.attrNumeric,
    terms: index.terms,
  };
}

export function writeSyntheticFile(
  file: string,
  cols: SyntheticColumns,
  index: SearchIndexData,
  id: string,
  fingerprint: string,
): number {
  const meta: CatalogFileMeta = { kind: 'synthetic', id, seed: cols.seed, fingerprint, ...baseMeta(cols, index) };
  return writeBinFile(file, meta, {
    ...columnSections(cols, index),
    'syn.adjective': cols.adjective,
    'syn.noun': cols.noun,
    'syn.model': cols.model,
  });
}

export function writeStoredFile(
  file: string,
  id: string,
  cols: CatalogColumns,
  texts: StoredTexts,
  index: SearchIndexData,
  fingerprint: string,
  info?: unknown,
): number {
  const meta: CatalogFileMeta = { kind: 'stored', id, fingerprint, info, ...baseMeta(cols, index) };
  const sections = columnSections(cols, index);
  const put = (name: string, list: readonly string[]) => {
    const { blob, ends } = packStrings(list);
    sections[`${name}.blob`] = blob;
    sections[`${name}.ends`] = ends;
  };
  put('txt.ids', texts.ids);
  put('txt.titles', texts.titles);
  put('txt.descriptions', texts.descriptions);
  put(
    'txt.features',
    texts.features.map((f) => f.join(SEP)),
  );
  put(
    'txt.nouns',
    texts.nouns.map((n) => n ?? ''),
  );
  return writeBinFile(file, meta, sections);
}

export interface LoadedCatalogFile {
  catalog: ColumnarCatalog;
  fingerprint: string;
  info?: unknown;
}

/** Load either kind of catalog file. Throws on a malformed or truncated file. */
export function readCatalogFile(file: string): LoadedCatalogFile {
  return catalogFromBinFile(readBinFile(file), file);
}

/** A section of a parsed catalog file, or a precise error naming the file. */
function sectionOf({ sections }: BinFile, file: string) {
  return <T extends TypedArray>(name: string): T => {
    const a = sections.get(name);
    if (!a) throw new Error(`${file}: missing section ${name}`);
    return a as T;
  };
}

/** A parsed file's search index and category column (what a loader thread needs for the bound table). */
export function indexOfBinFile(bin: BinFile, file: string) {
  const meta = bin.meta as CatalogFileMeta;
  const sec = sectionOf(bin, file);
  const index: SearchIndexData = {
    numDocs: meta.size,
    terms: meta.terms,
    offsets: sec<Uint32Array>('idx.offsets'),
    docs: sec<Uint32Array>('idx.docs'),
    impacts: sec<Float32Array>('idx.impacts'),
    maxImpact: sec<Float32Array>('idx.maxImpact'),
  };
  return { index, category: sec<IndexColumn>('col.category'), numCategories: meta.categoryTable.length };
}

/** The catalog of a parsed file; `categoryMax` is its index's bound table when computed ahead (a loader thread). */
export function catalogFromBinFile(bin: BinFile, file: string, categoryMax?: Float32Array): LoadedCatalogFile {
  const meta = bin.meta as CatalogFileMeta;
  const sec = sectionOf(bin, file);
  const cols: CatalogColumns = {
    size: meta.size,
    categoryTable: meta.categoryTable,
    category: sec<IndexColumn>('col.category'),
    brandTable: meta.brandTable,
    brand: sec<IndexColumn>('col.brand'),
    storeTable: meta.storeTable,
    store: sec<IndexColumn>('col.store'),
    priceCents: sec<Uint32Array>('col.priceCents'),
    rating10: sec<Uint8Array>('col.rating10'),
    ratingCount: sec<Uint32Array>('col.ratingCount'),
    shipDays: sec<Uint8Array>('col.shipDays'),
    stock: sec<Uint16Array>('col.stock'),
    attrNames: meta.attrNames,
    attrTables: meta.attrTables,
    attrCols: meta.attrNames.map((_, a) => sec<IndexColumn>(`attr.${a}`)),
    attrNumeric: meta.attrNumeric,
  };
  const index: SearchIndexData = {
    ...indexOfBinFile(bin, file).index,
    ...(categoryMax ? { categoryMax } : {}),
  };

  if (meta.kind === 'synthetic') {
    const syn: SyntheticColumns = {
      ...cols,
      seed: meta.seed!,
      adjective: sec('syn.adjective'),
      noun: sec('syn.noun'),
      model: sec('syn.model'),
    };
    return { catalog: syntheticCatalogFrom(syn, index), fingerprint: meta.fingerprint, info: meta.info };
  }
  const get = (name: string) => unpackStrings(sec(`${name}.blob`), sec(`${name}.ends`));
  const texts: StoredTexts = {
    ids: get('txt.ids'),
    titles: get('txt.titles'),
    descriptions: get('txt.descriptions'),
    features: get('txt.features').map((f) => (f === '' ? [] : f.split(SEP))),
    nouns: get('txt.nouns').map((n) => n || undefined),
  };
  return {
    catalog: new ColumnarCatalog(meta.id, cols, new StoredText(texts), index),
    fingerprint: meta.fingerprint,
    info: meta.info,
  };
}
