// The upkeep pass the server's thread runs: it indexes what the serving writers committed and
// checkpoints the WAL they only append to (wal_autocheckpoint = 0 with upkeep elsewhere).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '@/server/db-path';
import { prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEnvService } from './protocol';
import { Recorder } from './recorder';
import { SessionStore } from './sessions';
import { openSqliteWriter } from './sqlite-writer';
import { upkeepPass } from './store-upkeep';
import { createTokenService } from './tokens';
import { oracleRun, testConfig } from './test/helpers';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('store upkeep', () => {
  it('leaves indexing and checkpoints to the upkeep pass, which does both within its budget', async () => {
    const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
    const service = createEnvService({
      config: testConfig({ persist: true }),
      catalog: testCatalog(),
      tokens: createTokenService({ secret: 'x' }),
      sessions: new SessionStore({ maxSessions: 100, idleTimeoutMs: 60_000 }),
      recorder: new Recorder(writer),
    });
    const word = 'quorblentine';
    for (const seed of [1, 2, 3]) {
      const reference = oracleRun({ envId: 'PD', d: 3, seed });
      const { live, response } = service.reset({ env: 'PD', d: 3, seed, run: 'upkeep' });
      await service.durable(response);
      await service.durable(
        service.stepLive(live, {
          assistant_message: `Looking for ${word}.`,
          tool_calls: [{ name: 'catalog.search', args: { query: word } }],
          answer: null,
        }),
      );
      for (const action of reference.actions.slice(1))
        if (!live.episode.done) await service.durable(service.stepLive(live, action));
    }

    const conn = new Database(sqliteFile(db.url)!);
    try {
      const index = prepareTextIndex(conn);
      const pending = index.pending();
      expect(pending).toBeGreaterThan(10); // the writer indexed nothing itself
      const found = () =>
        conn
          .prepare(
            `SELECT count(DISTINCT o."episodeId") AS n FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid
             WHERE "EpisodeText" MATCH ?`,
          )
          .get(word) as { n: number };
      expect(found().n).toBe(0);

      // No budget: nothing indexed (but the WAL is checkpointed: every frame copied back).
      const idle = upkeepPass(conn, index, 0);
      expect(idle.indexed).toBe(0);
      expect(idle.walPages).toBeGreaterThan(0);
      expect(idle.checkpointed).toBe(idle.walPages);
      const pass = upkeepPass(conn, index);
      expect(pass.indexed).toBe(pending);
      expect(index.pending()).toBe(0);
      expect(found().n).toBe(3);
      // The index's own writes were checkpointed too.
      expect(pass.checkpointed).toBe(pass.walPages);
    } finally {
      conn.close();
      writer.close();
    }
  }, 60_000);
});
