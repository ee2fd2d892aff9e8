// Catalog registry: a catalog id → a lazily loaded, process-wide catalog.
// Episodes record the id of the catalog they were generated from, so replays rebuild them
// against the same products.
//   synthetic-s1-n{size}   the default (20,000, built on first use) and larger presets, which are
//                          built ahead by `npm run catalog:prepare` and then loaded from
//                          data/cache/catalogs; a request never builds one
//   {name}                 an imported catalog (npm run catalog:import), from data/catalogs/{name}
// Ids are canonical: only the registry's ids are accepted (no aliases such as s07). Loaded
// catalogs other than the default are evicted, least recently used first, under a memory cap.
import fs from 'node:fs';
import { readCatalogFileOffThread } from '@/server/catalog-loader';
import { loadOrCreateSyntheticCatalog, SYNTHETIC_FINGERPRINT, syntheticCacheFile } from '@/server/engine/catalog/cache';
import {
  IMPORTED_CATALOG_FINGERPRINT,
  importedCatalogFile,
  listImportedCatalogs,
  loadImportedCatalog,
} from '@/server/engine/catalog/import';
import { syntheticCatalogId } from '@/server/engine/catalog/synthetic';
import { prepareEvaluationPoolsInSlices } from '@/server/engine/envs/shared/recommend';
import type { ColumnarCatalog } from '@/server/engine/catalog/columnar-catalog';
import type { Catalog } from '@/server/engine/catalog/types';
import { AppError } from '@/server/lib/errors';

export const DEFAULT_SYNTHETIC = { seed: 1, size: 20_000 } as const;
export const DEFAULT_CATALOG_ID = syntheticCatalogId(DEFAULT_SYNTHETIC.seed, DEFAULT_SYNTHETIC.size);

/** Synthetic sizes offered besides the default (prepared ahead, then loaded from the disk cache). */
export const SYNTHETIC_PRESETS = [200_000, 2_000_000];

/**
 * Rough resident size of a loaded catalog with its evaluation pools (synthetic, round 10: 2M is
 * ≈ 600 MB once its pools are built, every product's feature bag stored; imported text costs more).
 */
export const BYTES_PER_PRODUCT = { synthetic: 300, imported: 600 } as const;
const DEFAULT_MEMORY_CAP_MB = 1024;
const DEFAULT_IDLE_S = 600;

export interface CatalogChoice {
  id: string;
  label: string;
  size: number;
  kind: 'synthetic' | 'imported';
  /** Already in memory: choosing it costs nothing. */
  loaded: boolean;
  /** On disk and ready to load (synthetic presets need `npm run catalog:prepare` once). */
  prepared: boolean;
}

interface Loaded {
  catalog: Catalog;
  bytes: number;
  /** Date.now() of the last request that used it (idle eviction) */
  usedAt: number;
}

const g = globalThis as unknown as {
  __ecomCatalogs?: Map<string, Loaded>;
  __ecomCatalogLoading?: Map<string, Promise<Catalog>>;
  __ecomCatalogEvict?: Array<(id: string) => void>;
  __ecomCatalogState?: { offThread: boolean; idleTimer: NodeJS.Timeout | null };
};
const cache: Map<string, Loaded> = (g.__ecomCatalogs ??= new Map());
const loading: Map<string, Promise<Catalog>> = (g.__ecomCatalogLoading ??= new Map());
const evictListeners: Array<(id: string) => void> = (g.__ecomCatalogEvict ??= []);
const state = (g.__ecomCatalogState ??= { offThread: false, idleTimer: null });

/** Called with the id of every evicted catalog (the episode service drops live episodes on it). */
export function onCatalogEvicted(fn: (catalogId: string) => void): void {
  evictListeners.push(fn);
}

export function catalogMemoryCapBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.ECOMRLVE_CATALOG_MEMORY_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MEMORY_CAP_MB) * 1024 * 1024;
}

/**
 * How long a catalog other than the default stays loaded without a request using it
 * (`ECOMRLVE_CATALOG_IDLE_S`, default 600 s; 0 keeps it until the memory cap evicts it).
 */
export function catalogIdleMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ECOMRLVE_CATALOG_IDLE_S;
  const s = raw === undefined || raw === '' ? DEFAULT_IDLE_S : Number(raw);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : DEFAULT_IDLE_S * 1000;
}

/** The registry's entry for an id, or a precise refusal (unknown id, or a preset not prepared). */
function choiceFor(catalogId: string): CatalogChoice {
  const choice = listCatalogs().find((c) => c.id === catalogId);
  if (!choice) {
    const alias = /^synthetic-s\d+-n\d+$/.test(catalogId)
      ? ' (catalog ids are exact; synthetic catalogs are the listed presets)'
      : '';
    throw new AppError(
      'BAD_INPUT',
      `unknown catalog "${catalogId}"${alias}; known: ${listCatalogs()
        .map((c) => c.id)
        .join(', ')}`,
    );
  }
  if (!choice.prepared) {
    throw new AppError(
      'BAD_INPUT',
      `catalog "${catalogId}" is not prepared on this server; run: npm run catalog:prepare -- ${catalogId}`,
    );
  }
  return choice;
}

function cached(catalogId: string): Catalog | undefined {
  const hit = cache.get(catalogId);
  if (!hit) return undefined;
  cache.delete(catalogId); // re-insert: most recently used
  cache.set(catalogId, hit);
  hit.usedAt = Date.now();
  return hit.catalog;
}

function remember(choice: CatalogChoice, catalog: Catalog): Catalog {
  cache.set(choice.id, { catalog, bytes: choice.size * BYTES_PER_PRODUCT[choice.kind], usedAt: Date.now() });
  evictOverCap(catalogMemoryCapBytes());
  if (choice.id !== DEFAULT_CATALOG_ID) scheduleIdleSweep();
  return catalog;
}

/** Checks for idle catalogs while any catalog besides the default is loaded (an unref'd timer). */
function scheduleIdleSweep(): void {
  const idleMs = catalogIdleMs();
  if (idleMs === 0 || state.idleTimer) return;
  state.idleTimer = setTimeout(
    () => {
      state.idleTimer = null;
      const evicted = evictIdle(Date.now(), idleMs);
      if (evicted.length > 0)
        console.log(`[ecomrlve] catalog ${evicted.join(', ')} unloaded after ${idleMs / 1000} s unused`);
      if ([...cache.keys()].some((id) => id !== DEFAULT_CATALOG_ID)) scheduleIdleSweep();
    },
    Math.min(idleMs, 60_000) / 2 + 1,
  );
  state.idleTimer.unref();
}

/** Drops every catalog but the default that no request used for `idleMs`; returns their ids. */
export function evictIdle(now: number, idleMs: number): string[] {
  const evicted: string[] = [];
  for (const [id, loaded] of cache) {
    if (id === DEFAULT_CATALOG_ID || now - loaded.usedAt < idleMs) continue;
    drop(id);
    evicted.push(id);
  }
  return evicted;
}

function drop(id: string): void {
  cache.delete(id);
  for (const fn of evictListeners) fn(id);
}

/**
 * In the app server (instrumentation.ts), catalogs other than the default are read in a worker
 * thread: `getCatalog` answers BUSY ("loading") instead of reading a large file on the request
 * thread, and `loadCatalog` waits for it. Elsewhere (CLIs, tests, worker threads) `getCatalog`
 * reads the file itself.
 */
export function loadCatalogsOffThread(on = true): void {
  state.offThread = on;
}

/** The catalog with this id, loaded once per process (and again after an eviction). */
export function getCatalog(catalogId: string = DEFAULT_CATALOG_ID): Catalog {
  const hit = cached(catalogId);
  if (hit) return hit;
  const choice = choiceFor(catalogId);
  if (state.offThread && catalogId !== DEFAULT_CATALOG_ID) {
    loadCatalog(catalogId).catch(() => undefined); // the next request sees the outcome
    throw new AppError(
      'BUSY',
      `catalog "${catalogId}" is loading (${choice.size.toLocaleString('en-US')} products); retry in a few seconds`,
    );
  }
  const catalog =
    choice.kind === 'synthetic'
      ? loadOrCreateSyntheticCatalog({ seed: DEFAULT_SYNTHETIC.seed, size: choice.size })
      : loadImportedCatalog(catalogId);
  return remember(choice, catalog);
}

/**
 * The catalog with this id, read from its file in a worker thread when it is not in memory
 * (the default, small and always kept, is built here). Concurrent calls share one load.
 */
export function loadCatalog(catalogId: string = DEFAULT_CATALOG_ID): Promise<Catalog> {
  const hit = cached(catalogId);
  if (hit) return Promise.resolve(hit);
  const pending = loading.get(catalogId);
  if (pending) return pending;
  let choice: CatalogChoice;
  try {
    choice = choiceFor(catalogId);
    if (catalogId === DEFAULT_CATALOG_ID) return Promise.resolve(getCatalog(catalogId)); // small: built here
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const load = readCatalogOffThread(choice)
    .then(async (catalog) => {
      // the evaluation pools (PD, SUB, RETURN, JOURNEY) are built on a catalog's first reset:
      // seconds at 2M products. Built here in slices, before any request can use the catalog.
      await prepareEvaluationPoolsInSlices(catalog, slicePause(SLICE_MS));
      return remember(choice, catalog);
    })
    .finally(() => loading.delete(catalogId));
  loading.set(catalogId, load);
  return load;
}

/** The longest stretch of pool building between two turns of the event loop (ms of wall time). */
const SLICE_MS = 5;

/**
 * A pause for a build in slices: lets other requests run once `budgetMs` has passed since the last
 * pause, and otherwise goes on at once. The build offers a pause every 50 bags and every
 * category; a fixed count per pause was 0.1–0.5 s under load (heartbeat p99 in bench:abuse).
 */
export function slicePause(budgetMs: number, now = () => performance.now()): () => Promise<void> {
  let since = now();
  return () =>
    now() - since < budgetMs
      ? Promise.resolve()
      : new Promise((resolve) =>
          setImmediate(() => {
            since = now();
            resolve();
          }),
        );
}

/** Ids being read by a worker thread right now. */
export const loadingCatalogIds = (): string[] => [...loading.keys()];

async function readCatalogOffThread(choice: CatalogChoice): Promise<ColumnarCatalog> {
  const synthetic = choice.kind === 'synthetic';
  const file = synthetic ? syntheticCacheFile(DEFAULT_SYNTHETIC.seed, choice.size) : importedCatalogFile(choice.id);
  const again = synthetic ? `run: npm run catalog:prepare -- ${choice.id}` : 'import it again (npm run catalog:import)';
  let loaded;
  try {
    loaded = await readCatalogFileOffThread(file);
  } catch (e) {
    throw new AppError('BAD_INPUT', `catalog "${choice.id}" could not be read (${(e as Error).message}); ${again}`);
  }
  const fingerprint = synthetic ? SYNTHETIC_FINGERPRINT : IMPORTED_CATALOG_FINGERPRINT;
  if (loaded.fingerprint !== fingerprint || loaded.catalog.id !== choice.id)
    throw new AppError('BAD_INPUT', `catalog "${choice.id}" on disk was written by another version; ${again}`);
  return loaded.catalog;
}

/** Drops the least recently used catalogs (never the default) until the total is under the cap. */
export function evictOverCap(capBytes: number): string[] {
  const evicted: string[] = [];
  let total = [...cache.values()].reduce((n, l) => n + l.bytes, 0);
  for (const [id, loaded] of cache) {
    if (total <= capBytes) break;
    if (id === DEFAULT_CATALOG_ID || cache.size === 1) continue;
    drop(id);
    total -= loaded.bytes;
    evicted.push(id);
  }
  return evicted;
}

export const loadedCatalogIds = (): string[] => [...cache.keys()];

/** What the home page offers: the default, larger synthetic presets, and every imported catalog. */
export function listCatalogs(): CatalogChoice[] {
  const synthetic = [DEFAULT_SYNTHETIC.size, ...SYNTHETIC_PRESETS].map((size) => {
    const id = syntheticCatalogId(DEFAULT_SYNTHETIC.seed, size);
    return {
      id,
      label: `Synthetic, ${size.toLocaleString('en-US')} products`,
      size,
      kind: 'synthetic' as const,
      loaded: cache.has(id),
      prepared:
        id === DEFAULT_CATALOG_ID || cache.has(id) || fs.existsSync(syntheticCacheFile(DEFAULT_SYNTHETIC.seed, size)),
    };
  });
  const imported = listImportedCatalogs().map((c) => ({
    id: c.name,
    label: `${c.name} (imported ${c.importedAt.slice(0, 10)}, ${c.size.toLocaleString('en-US')} products)`,
    size: c.size,
    kind: 'imported' as const,
    loaded: cache.has(c.name),
    prepared: true,
  }));
  return [...synthetic, ...imported];
}
