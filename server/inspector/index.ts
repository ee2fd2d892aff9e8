// The process-wide inspector: one store connection (SQLite or PostgreSQL) and the catalog registry.
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { sqlDb, type SqlDb } from '@/server/db/sql';
import { sqlFor } from '@/server/db/dialect';
import { createEpisodeData } from './episode-data';

const g = globalThis as unknown as { __ecomInspector?: ReturnType<typeof make> };

function make() {
  const db = sqlDb();
  return { db, data: createEpisodeData(db, getCatalog), getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID };
}

export const inspector = () => (g.__ecomInspector ??= make());

/** Distinct values for the filter menus (small: players, runs, catalogs, origins). */
export async function facets(db: SqlDb = inspector().db) {
  const col = async (expr: string, limit: number) =>
    (
      await db.all<{ v: string }>(
        `SELECT DISTINCT ${sqlFor(db.dialect).bytewise(expr)} AS "v" FROM "Episode" WHERE ${expr} IS NOT NULL ORDER BY 1 LIMIT ${limit}`,
      )
    ).map((r) => r.v);
  return {
    players: await col('"player"', 200),
    runs: await col('coalesce("runLabel", "curriculumRunId")', 200),
    catalogs: await col('"catalogId"', 200),
    origins: await col('"origin"', 50),
  };
}
