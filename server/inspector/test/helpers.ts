// Test helper: a migrated SQLite file with episodes played through the real episode service.
import { oracleAgent, heuristicAgent, createEpisode } from '@/server/engine';
import type { Agent } from '@/server/engine';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId } from '@/server/engine/types';
import { createEpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { openSqlite, sqliteSqlDb, type SqlDb, type Sqlite } from '@/server/db/sql';

export const TEST_CATALOG_ID = 'synthetic-s1-n3000';
let catalog: Catalog | null = null;
export const testCatalog = () => (catalog ??= createSyntheticCatalog({ seed: 1, size: 3000 }));
export const getTestCatalog = (id: string = TEST_CATALOG_ID) => {
  if (id !== TEST_CATALOG_ID) throw new Error(`unknown catalog ${id}`);
  return testCatalog();
};

export interface InspectorTestDb extends TestDb {
  /** the raw connection, for checks in SQL */
  sqlite: Sqlite;
  /** the same connection as the inspector's store */
  store: SqlDb;
  play(envId: EnvId, d: number, seed: number, agent: 'oracle' | 'heuristic'): Promise<string>;
}

export function createInspectorTestDb(): InspectorTestDb {
  const db = createTestDb();
  const service = createEpisodeService({
    prisma: db.prisma,
    getCatalog: getTestCatalog,
    defaultCatalogId: TEST_CATALOG_ID,
  });
  const sqlite = openSqlite(db.url);
  return {
    ...db,
    sqlite,
    store: sqliteSqlDb(sqlite),
    async play(envId, d, seed, agentName) {
      const agent: Agent = agentName === 'oracle' ? oracleAgent : heuristicAgent;
      const view = await service.startEpisode({ envId, d, seed, player: agentName });
      // the agent reads a live twin of the stored episode (same config → same observations)
      const twin = createEpisode({ envId, d, seed }, testCatalog());
      let obs = twin.reset().observation;
      while (!twin.done) {
        const action = agent.act(obs, twin);
        obs = twin.step(action).observation;
        await service.submitAction(view.id, action);
      }
      return view.id;
    },
    async cleanup() {
      sqlite.close();
      await db.cleanup();
    },
  };
}
