// The process-wide inspector: one SQLite connection and the catalog registry.
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { inspectorDb } from './db';
import { createEpisodeData } from './episode-data';

const g = globalThis as unknown as { __ecomInspector?: ReturnType<typeof make> };

function make() {
  const db = inspectorDb();
  return { db, data: createEpisodeData(db, getCatalog), getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID };
}

export const inspector = () => (g.__ecomInspector ??= make());

/** Distinct values for the filter menus (small: players, runs, catalogs, origins). */
export function facets() {
  const { db } = inspector();
  const col = (sql: string) => (db.prepare(sql).all() as Array<{ v: string }>).map((r) => r.v);
  return {
    players: col(`SELECT DISTINCT "player" v FROM "Episode" ORDER BY 1 LIMIT 200`),
    runs: col(
      `SELECT DISTINCT coalesce("runLabel", "curriculumRunId") v FROM "Episode" WHERE v IS NOT NULL ORDER BY 1 LIMIT 200`,
    ),
    catalogs: col(`SELECT DISTINCT "catalogId" v FROM "Episode" ORDER BY 1 LIMIT 200`),
    origins: col(`SELECT DISTINCT "origin" v FROM "Episode" ORDER BY 1 LIMIT 50`),
  };
}
