// Catalog registry: a catalog id → a lazily loaded, process-wide singleton.
// Episodes record the id of the catalog they were generated from, so replays
// rebuild them against the same products.
//   synthetic-s{seed}-n{size}  generated once, then loaded from data/cache/catalogs
//   {name}                     an imported catalog (npm run catalog:import), from data/catalogs/{name}
import { loadOrCreateSyntheticCatalog } from '@/server/engine/catalog/cache';
import { listImportedCatalogs, loadImportedCatalog } from '@/server/engine/catalog/import';
import { syntheticCatalogId } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';

export const DEFAULT_SYNTHETIC = { seed: 1, size: 20_000 } as const;
export const DEFAULT_CATALOG_ID = syntheticCatalogId(DEFAULT_SYNTHETIC.seed, DEFAULT_SYNTHETIC.size);

/** Synthetic sizes offered in the UI besides the default (built on first use, then cached on disk). */
const SYNTHETIC_PRESETS = [200_000, 2_000_000];
/** Largest synthetic catalog the app will build on demand from an id. */
const MAX_ON_DEMAND_SIZE = 2_000_000;

const g = globalThis as unknown as { __ecomCatalogs?: Map<string, Catalog> };
const cache: Map<string, Catalog> = (g.__ecomCatalogs ??= new Map());

export class UnknownCatalogError extends Error {}

export interface CatalogChoice {
  id: string;
  label: string;
  size: number;
  kind: 'synthetic' | 'imported';
  /** Already in memory: choosing it costs nothing. */
  loaded: boolean;
}

/** The catalog with this id, loaded once per process. */
export function getCatalog(catalogId: string = DEFAULT_CATALOG_ID): Catalog {
  const hit = cache.get(catalogId);
  if (hit) return hit;
  const catalog = load(catalogId);
  cache.set(catalogId, catalog);
  return catalog;
}

function load(catalogId: string): Catalog {
  const m = /^synthetic-s(\d+)-n(\d+)$/.exec(catalogId);
  if (m) {
    const seed = Number(m[1]);
    const size = Number(m[2]);
    if (size < 1 || size > MAX_ON_DEMAND_SIZE) throw new UnknownCatalogError(`synthetic catalog size must be 1..${MAX_ON_DEMAND_SIZE}, got ${size}`);
    return loadOrCreateSyntheticCatalog({ seed, size });
  }
  if (listImportedCatalogs().some((c) => c.name === catalogId)) return loadImportedCatalog(catalogId);
  throw new UnknownCatalogError(`unknown catalog "${catalogId}"; known: ${listCatalogs().map((c) => c.id).join(', ')}`);
}

/** What the home page offers: the default, larger synthetic presets, and every imported catalog. */
export function listCatalogs(): CatalogChoice[] {
  const synthetic = [DEFAULT_SYNTHETIC.size, ...SYNTHETIC_PRESETS].map((size) => {
    const id = syntheticCatalogId(DEFAULT_SYNTHETIC.seed, size);
    return { id, label: `Synthetic, ${size.toLocaleString('en-US')} products`, size, kind: 'synthetic' as const, loaded: cache.has(id) };
  });
  const imported = listImportedCatalogs().map((c) => ({
    id: c.name,
    label: `${c.name} (imported ${c.importedAt.slice(0, 10)}, ${c.size.toLocaleString('en-US')} products)`,
    size: c.size,
    kind: 'imported' as const,
    loaded: cache.has(c.name),
  }));
  return [...synthetic, ...imported];
}
