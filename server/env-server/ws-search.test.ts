// A trainer episode played over the WebSocket session is in the inspector's search the moment
// its last step is acknowledged: the step's events are stored with it (one writer, no deferred
// events) and every search first indexes what was committed (server/episodes/writer.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { EnvWsClient } from '@/clients/typescript/env-client';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/episodes/queries/list';
import { startEnvServer, type RunningEnvServer } from './server';
import { oracleRun, testConfig } from './test/helpers';

let db: TestDb;
let server: RunningEnvServer;
beforeAll(async () => {
  db = createTestDb();
  // the Next mount's way: the app's Prisma client, so the SQL connection is the inspector's own
  server = await startEnvServer(testConfig({ persist: true }), testCatalog(), { prisma: db.prisma });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await db?.cleanup();
});

const search = async (q: string) =>
  (await listEpisodes(db.sql, listInputSchema.parse({ filter: { q } }))).rows.map((r) => [r.id, r.status]);

describe('a trainer episode over WebSocket', () => {
  it('is found by the inspector search as soon as its last step is acknowledged', async () => {
    const reference = oracleRun({ envId: 'PD', d: 3, seed: 12 });
    // the last turn says a word no other event holds
    const last = reference.actions.length - 1;
    const actions: Action[] = reference.actions.map((a, i) =>
      i === last ? { ...a, assistant_message: `${a.assistant_message} Zorblefrax.` } : a,
    );
    const ws = await EnvWsClient.connect(server.url);
    try {
      const { episode_id: id } = await ws.reset({ env: 'PD', d: 3, seed: 12, run: 'ws-search' });
      for (const [i, action] of actions.entries()) {
        const r = await ws.step(action);
        if (i < last) {
          expect(r.done).toBe(false);
          expect(await search('zorblefrax')).toEqual([]);
        } else expect(r.done).toBe(true);
      }
      // no wait, no idle time: the acknowledgement is the store's commit
      expect(await search('zorblefrax')).toEqual([[id, 'done']]);
      expect(
        await search(
          String(actions[0].assistant_message)
            .split(/\W+/)
            .find((w) => w.length > 4)!,
        ),
      ).toEqual(expect.arrayContaining([[id, 'done']]));
    } finally {
      ws.close();
    }
  });
});
