// The process-wide inspector: one store connection (SQLite or PostgreSQL) and the replay's data over it.
import { getCatalog } from '@/server/catalogs';
import { sqlDb, type SqlDb } from '@/server/db/sql';
import { distinctValues } from '@/server/episodes/queries';
import { createEpisodeData } from './episode-data';
import { batchRunName, runKey, type RunOption } from './run-keys';

const g = globalThis as unknown as { __ecomInspector?: ReturnType<typeof make> };

function make() {
  const db = sqlDb();
  return { db, data: createEpisodeData(db, getCatalog) };
}

export const inspector = () => (g.__ecomInspector ??= make());

/** Distinct values for the filter menus (small: players, runs, catalogs, origins). */
export async function facets(db: SqlDb = inspector().db) {
  const players = await distinctValues(db, 'player', 200);
  return {
    players,
    runs: await runOptions(db, players),
    catalogs: await distinctValues(db, 'catalogId', 200),
    origins: await distinctValues(db, 'origin', 50),
  };
}

/** Every run the filters offer, newest batch and curriculum runs first. */
async function runOptions(db: SqlDb, players: readonly string[]): Promise<RunOption[]> {
  const batch = await db.all<{ id: string; player: string; spec: string }>(
    `SELECT "id", "player", "spec" FROM "ModelRun" ORDER BY "createdAt" DESC LIMIT 100`,
  );
  const curriculum = await db.all<{ id: string; name: string }>(
    `SELECT "id", "name" FROM "CurriculumRun" ORDER BY "createdAt" DESC LIMIT 100`,
  );
  const labels = await distinctValues(db, 'runLabel', 100);
  return [
    ...batch.map((r) => ({ key: runKey('batch', r.id), kind: 'batch' as const, name: batchRunName(r.player, r.spec) })),
    ...curriculum.map((r) => ({ key: runKey('curriculum', r.id), kind: 'curriculum' as const, name: r.name })),
    ...players
      .filter((p) => p.startsWith('trainer:') && p !== 'trainer:unnamed')
      .map((p) => ({ key: runKey('trainer', p.slice(8)), kind: 'trainer' as const, name: p.slice(8) })),
    ...labels.map((v) => ({ key: runKey('import', v), kind: 'import' as const, name: v })),
  ];
}
