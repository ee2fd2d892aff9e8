// Catalog registry: a catalog id → a lazily built, process-wide singleton.
// Episodes record the id of the catalog they were generated from, so replays
// rebuild them against the same products.
import type { Catalog } from '@/server/engine/catalog/types';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';

export const DEFAULT_SYNTHETIC = { seed: 1, size: 20_000 } as const;
export const DEFAULT_CATALOG_ID = syntheticId(DEFAULT_SYNTHETIC.seed, DEFAULT_SYNTHETIC.size);

function syntheticId(seed: number, size: number): string {
  return `synthetic-s${seed}-n${size}`;
}

/** Largest synthetic catalog the app will build on demand from an id. */
const MAX_ON_DEMAND_SIZE = 2_000_000;

const g = globalThis as unknown as { __ecomCatalogs?: Map<string, Catalog> };
const cache: Map<string, Catalog> = (g.__ecomCatalogs ??= new Map());

/** Named catalogs (imported ones will be registered here by name). */
const named = new Map<string, () => Catalog>();

export function registerCatalog(id: string, build: () => Catalog): void {
  named.set(id, build);
}

export class UnknownCatalogError extends Error {}

/** The catalog with this id, built once per process. Ids "synthetic-s{seed}-n{size}" are built on demand. */
export function getCatalog(catalogId: string = DEFAULT_CATALOG_ID): Catalog {
  const hit = cache.get(catalogId);
  if (hit) return hit;
  let catalog: Catalog;
  const build = named.get(catalogId);
  if (build) {
    catalog = build();
  } else {
    const m = /^synthetic-s(\d+)-n(\d+)$/.exec(catalogId);
    if (!m) throw new UnknownCatalogError(`unknown catalog "${catalogId}"; known: ${knownCatalogIds().join(', ')}`);
    const seed = Number(m[1]);
    const size = Number(m[2]);
    if (size < 1 || size > MAX_ON_DEMAND_SIZE)
      throw new UnknownCatalogError(`synthetic catalog size must be 1..${MAX_ON_DEMAND_SIZE}, got ${size}`);
    catalog = createSyntheticCatalog({ seed, size });
  }
  if (catalog.id !== catalogId) {
    // The catalog names itself; keep both keys so either id finds it.
    cache.set(catalog.id, catalog);
  }
  cache.set(catalogId, catalog);
  return catalog;
}

export function knownCatalogIds(): string[] {
  return [DEFAULT_CATALOG_ID, ...named.keys()];
}
