// npm run bench:store [-- --rounds 10]
// What a step's acknowledgement costs on the web hot path, with full-text indexing off the ack
// path (now) and with the per-event trigger it replaced (round 3), measured side by side in one
// process on two fresh databases (same episodes, interleaved, so machine load hits both alike):
// CPU per step inside appendStep (the transaction a step waits for), and the CPU the catch-up
// spends afterwards per step (text-index.ts; in the app it runs in the background or before a
// query). CPU time, not wall time: the machine may be shared.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEpisode, oracleAgent, ENV_IDS } from '@/server/engine';
import { createPrismaClient } from '@/server/db';
import { copyMigratedSqlite } from '@/server/lib/migrated-sqlite';
import { createEpisodeService } from '@/server/episodes/service';
import { openSqliteHotPath } from '@/server/episodes/sqlite-hot-path';
import { openSqlite, sqliteInspectorDb } from '@/server/inspector/db';
import { indexCommitted } from '@/server/inspector/pg-search';
import { getTestCatalog, TEST_CATALOG_ID, testCatalog } from '@/server/inspector/test-helpers';

// The round-3 trigger, as migration 20261130150000 created it (without its bulk-load switch).
const oldTrigger = readFileSync('prisma/migrations/20261130150000_inspector_bulk_load/migration.sql', 'utf8')
  .split('DROP TRIGGER "EpisodeText_insert";')[1]
  .split('DROP TRIGGER "Episode_toolCalls_insert";')[0]
  .replace(`AND NOT EXISTS (SELECT 1 FROM "InspectorBulkLoad")`, '');
function freshStore(withTrigger: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ab-'));
  const url = `file:${path.join(dir, 't.db')}`;
  copyMigratedSqlite(url.slice('file:'.length));
  const s = openSqlite(url);
  if (withTrigger) s.exec(oldTrigger);
  const hot = openSqliteHotPath(url.slice(5), { indexDelayMs: 1e9 });
  let ms = 0;
  let steps = 0;
  const timed = {
    ...hot,
    appendStep: (r: Parameters<typeof hot.appendStep>[0]) => {
      const t = process.cpuUsage();
      hot.appendStep(r);
      const c = process.cpuUsage(t);
      ms += (c.user + c.system) / 1000;
      steps++;
    },
  };
  const prisma = createPrismaClient(url);
  const service = createEpisodeService({
    prisma,
    getCatalog: getTestCatalog,
    defaultCatalogId: TEST_CATALOG_ID,
    hotPath: timed,
  });
  return { s, service, get: () => ({ ms, steps }) };
}
const A = freshStore(false);
const B = freshStore(true);
const catchUp = { ms: 0 };
const at = process.argv.indexOf('--rounds');
const ROUNDS = at < 0 ? 10 : Number(process.argv[at + 1]);
for (let round = 0; round < ROUNDS; round++)
  for (const envId of ENV_IDS)
    for (const [i, side] of [A, B].entries()) {
      const seed = round * 10 + 1;
      const view = await side.service.startEpisode({ envId, d: 6, seed, player: 'oracle' });
      const twin = createEpisode({ envId, d: 6, seed }, testCatalog());
      let obs = twin.reset().observation;
      while (!twin.done) {
        const a = oracleAgent.act(obs, twin);
        obs = twin.step(a).observation;
        await side.service.submitAction(view.id, a);
      }
      if (i === 0) {
        const t = process.cpuUsage();
        await indexCommitted(sqliteInspectorDb(A.s), false);
        const c = process.cpuUsage(t);
        catchUp.ms += (c.user + c.system) / 1000;
      }
    }
const a = A.get();
const b = B.get();
console.log(`${a.steps} steps each (oracle, all envs, d = 6, ${ROUNDS} seeds); CPU per step:`);
console.log(`  acknowledged step, indexing off the ack path (now)  ${(a.ms / a.steps).toFixed(3)} ms`);
console.log(`  acknowledged step, per-event FTS trigger (round 3)  ${(b.ms / b.steps).toFixed(3)} ms`);
console.log(`  catch-up afterwards, per step (once per episode)    ${(catchUp.ms / a.steps).toFixed(3)} ms`);
process.exit(0); // the Prisma clients and hot paths stay open otherwise
