// Import of a real catalog: JSONL (optionally .gz) in the Amazon Reviews 2023
// item-metadata schema, streamed line by line (readline over a stream, so memory
// per line is constant; the catalog itself is of course held). Each bad line is
// reported with its 1-based line number and skipped; every good line is kept.
//
// Storage decision: an imported catalog is named (e.g. "amazon") and saved, fully
// normalised and indexed, as data/catalogs/<name>/catalog.bin with the import
// report beside it (report.json). The catalog's id is its name, so an episode
// records "amazon" and a replay loads the same file. loadImportedCatalog(name)
// reads it back in about a second per million products; listImportedCatalogs()
// lists what is there. Node-only (fs); the engine core never imports this module.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { normaliseAmazonRecord } from './amazon-normalise';
import { readCatalogFile, writeStoredFile } from './catalog-file';
import { ColumnarCatalog } from './columnar-catalog';
import { CatalogAccumulator, StoredText } from './from-products';

export const DEFAULT_CATALOGS_DIR = path.join('data', 'catalogs');
/** Bad lines kept in the report (all are counted). */
export const MAX_REPORTED_LINES = 10_000;
const IMPORT_FORMAT = 1;
const FINGERPRINT = `import-v${IMPORT_FORMAT}`;
/** What an imported catalog's file must carry to be read by this version. */
export const IMPORTED_CATALOG_FINGERPRINT = FINGERPRINT;

export interface LineIssue {
  line: number;
  reason: string;
}

export interface ImportProgress {
  lines: number;
  imported: number;
  bad: number;
  bytesRead: number;
  totalBytes: number;
}

export interface ImportReport {
  name: string;
  source: string;
  lines: number;
  imported: number;
  badCount: number;
  /** the first MAX_REPORTED_LINES bad lines, in file order */
  bad: LineIssue[];
  warningCount: number;
  warnings: LineIssue[];
  ms: number;
  importedAt: string;
}

export interface ImportOptions {
  name: string;
  /** default data/catalogs */
  dir?: string;
  onProgress?: (p: ImportProgress) => void;
  /** progress every N lines (default 10,000) */
  progressEvery?: number;
  /** write the catalog to disk (default true) */
  save?: boolean;
}

export interface ImportResult {
  catalog: ColumnarCatalog;
  report: ImportReport;
  file?: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function validateCatalogName(name: string): void {
  if (!NAME.test(name))
    throw new Error(`catalog name "${name}" must match ${NAME} (lowercase letters, digits, - and _)`);
  if (name.startsWith('synthetic')) throw new Error('catalog names starting with "synthetic" are reserved');
}

export function importedCatalogFile(name: string, dir = DEFAULT_CATALOGS_DIR): string {
  return path.join(dir, name, 'catalog.bin');
}

/** Import a JSONL file into a named catalog (and save it unless save: false). */
export async function importAmazonJsonl(file: string, opts: ImportOptions): Promise<ImportResult> {
  validateCatalogName(opts.name);
  const t0 = performance.now();
  const totalBytes = fs.statSync(file).size;
  const raw = fs.createReadStream(file);
  let bytesRead = 0;
  raw.on('data', (chunk) => (bytesRead += chunk.length));
  const input = file.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  const rl = readline.createInterface({ input, crlfDelay: Infinity });

  const acc = new CatalogAccumulator();
  const firstLine = new Map<string, number>();
  const bad: LineIssue[] = [];
  const warnings: LineIssue[] = [];
  let badCount = 0;
  let warningCount = 0;
  let lines = 0;
  const every = opts.progressEvery ?? 10_000;
  const progress = () => opts.onProgress?.({ lines, imported: acc.size, bad: badCount, bytesRead, totalBytes });
  const reject = (line: number, reason: string) => {
    badCount++;
    if (bad.length < MAX_REPORTED_LINES) bad.push({ line, reason });
  };

  for await (const text of rl) {
    lines++;
    const line = lines;
    if (line % every === 0) progress();
    if (text.trim() === '') continue; // blank lines carry no product and are not errors
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch (err) {
      reject(line, `invalid JSON: ${(err as Error).message}`);
      continue;
    }
    const res = normaliseAmazonRecord(rec);
    if ('error' in res) {
      reject(line, res.error);
      continue;
    }
    const prev = firstLine.get(res.product.id);
    if (prev !== undefined) {
      reject(line, `duplicate parent_asin ${res.product.id} (first on line ${prev})`);
      continue;
    }
    firstLine.set(res.product.id, line);
    acc.add(res.product);
    for (const w of res.warnings) {
      warningCount++;
      if (warnings.length < MAX_REPORTED_LINES) warnings.push({ line, reason: w });
    }
  }
  progress();

  const { cols, texts, index } = acc.finish();
  const catalog = new ColumnarCatalog(opts.name, cols, new StoredText(texts), index);
  const report: ImportReport = {
    name: opts.name,
    source: path.resolve(file),
    lines,
    imported: acc.size,
    badCount,
    bad,
    warningCount,
    warnings,
    ms: Math.round(performance.now() - t0),
    importedAt: new Date().toISOString(),
  };
  let out: string | undefined;
  if (opts.save !== false) {
    out = importedCatalogFile(opts.name, opts.dir);
    writeStoredFile(out, opts.name, cols, texts, index, FINGERPRINT, {
      source: report.source,
      importedAt: report.importedAt,
    });
    fs.writeFileSync(path.join(path.dirname(out), 'report.json'), JSON.stringify(report, null, 2));
  }
  return { catalog, report, file: out };
}

/** Load a saved imported catalog by name; throws if it does not exist. */
export function loadImportedCatalog(name: string, dir = DEFAULT_CATALOGS_DIR): ColumnarCatalog {
  validateCatalogName(name);
  const file = importedCatalogFile(name, dir);
  if (!fs.existsSync(file)) throw new Error(`no imported catalog "${name}" (${file}); run npm run catalog:import`);
  const { catalog, fingerprint } = readCatalogFile(file);
  if (fingerprint !== FINGERPRINT)
    throw new Error(`catalog "${name}" was written by another importer version; import it again`);
  return catalog;
}

export interface ImportedCatalogInfo {
  name: string;
  size: number;
  badCount: number;
  importedAt: string;
  source: string;
}

/** Imported catalogs on disk, by name (those with a readable report). */
export function listImportedCatalogs(dir = DEFAULT_CATALOGS_DIR): ImportedCatalogInfo[] {
  // turbopackIgnore: a run-time directory; the comment keeps a bundler from tracing the whole project
  if (!fs.existsSync(/*turbopackIgnore: true*/ dir)) return [];
  const out: ImportedCatalogInfo[] = [];
  for (const name of fs.readdirSync(/*turbopackIgnore: true*/ dir).sort()) {
    const reportFile = path.join(dir, name, 'report.json');
    if (!NAME.test(name) || !fs.existsSync(importedCatalogFile(name, dir)) || !fs.existsSync(reportFile)) continue;
    try {
      const r = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ImportReport;
      out.push({ name, size: r.imported, badCount: r.badCount, importedAt: r.importedAt, source: r.source });
    } catch {
      // an unreadable report hides the catalog from the list; it can still be loaded by name
    }
  }
  return out;
}
