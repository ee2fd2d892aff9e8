// Disk cache of synthetic catalogs, so a restart loads (≈ 1 s at 2M products)
// instead of regenerating. One file per (seed, size) under data/cache/catalogs/,
// named with a fingerprint of the taxonomy, generator and index parameters: any
// change to them makes a new file rather than serving stale products.
// Node-only (fs); the engine core never imports this module.

import fs from 'node:fs';
import path from 'node:path';
import { hashString } from '../random';
import { DEFAULT_ATTR_VALUES } from './attributes';
import { readCatalogFile, writeSyntheticFile } from './catalog-file';
import type { ColumnarCatalog } from './columnar-catalog';
import { BM25_B, BM25_K1 } from './search-index';
import {
  SYNTHETIC_GENERATOR_VERSION,
  buildSyntheticIndex,
  generateSyntheticColumns,
  syntheticCatalogFrom,
  syntheticCatalogId,
} from './synthetic';
import { ALL_DEPARTMENTS } from './taxonomy';

export const DEFAULT_CACHE_DIR = path.join('data', 'cache', 'catalogs');
const FILE_FORMAT = 1;

/** Changes whenever cached products or index would differ. */
export const SYNTHETIC_FINGERPRINT = hashString(
  JSON.stringify({ FILE_FORMAT, SYNTHETIC_GENERATOR_VERSION, BM25_K1, BM25_B, ALL_DEPARTMENTS, DEFAULT_ATTR_VALUES }),
)
  .toString(16)
  .padStart(8, '0');

export interface CacheOptions {
  seed: number;
  size: number;
  /** default data/cache/catalogs (relative to the working directory) */
  cacheDir?: string;
  /** progress / diagnostics */
  log?: (message: string) => void;
}

export interface CacheLoadInfo {
  source: 'cache' | 'generated';
  file: string;
  ms: number;
}

export function syntheticCacheFile(seed: number, size: number, cacheDir = DEFAULT_CACHE_DIR): string {
  return path.join(cacheDir, `synthetic-s${seed}-n${size}-${SYNTHETIC_FINGERPRINT}.bin`);
}

/** The cached catalog, or null when there is no valid cache file. A corrupt file is deleted. */
export function readSyntheticCache(opts: CacheOptions): ColumnarCatalog | null {
  const file = syntheticCacheFile(opts.seed, opts.size, opts.cacheDir);
  if (!fs.existsSync(file)) return null;
  try {
    const { catalog, fingerprint } = readCatalogFile(file);
    if (fingerprint !== SYNTHETIC_FINGERPRINT || catalog.id !== syntheticCatalogId(opts.seed, opts.size)) {
      throw new Error('fingerprint mismatch');
    }
    return catalog;
  } catch (err) {
    opts.log?.(`catalog cache ${file} unusable (${(err as Error).message}); regenerating`);
    fs.rmSync(file, { force: true });
    return null;
  }
}

/** Load the synthetic catalog from the disk cache, or generate, index and cache it. */
export function loadOrCreateSyntheticCatalog(opts: CacheOptions, info?: (i: CacheLoadInfo) => void): ColumnarCatalog {
  const t0 = performance.now();
  const file = syntheticCacheFile(opts.seed, opts.size, opts.cacheDir);
  const cached = readSyntheticCache(opts);
  if (cached) {
    info?.({ source: 'cache', file, ms: performance.now() - t0 });
    return cached;
  }
  opts.log?.(`generating synthetic catalog seed=${opts.seed} size=${opts.size}`);
  const cols = generateSyntheticColumns(opts);
  const index = buildSyntheticIndex(cols);
  const catalog = syntheticCatalogFrom(cols, index);
  try {
    writeSyntheticFile(file, cols, index, catalog.id, SYNTHETIC_FINGERPRINT);
  } catch (err) {
    // a read-only disk must not stop the app: it just regenerates next time
    opts.log?.(`could not write catalog cache ${file}: ${(err as Error).message}`);
  }
  info?.({ source: 'generated', file, ms: performance.now() - t0 });
  return catalog;
}
