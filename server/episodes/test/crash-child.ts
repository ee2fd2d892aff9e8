// Test helper (crash.test.ts): steps one episode as fast as it can and prints "ack <turn>"
// after each step the service has acknowledged, until it is killed.
import { writeSync } from 'node:fs';
import { createPrismaClient } from '@/server/db';
import { getCatalog, DEFAULT_CATALOG_ID } from '@/server/catalogs';
import { createEpisodeService } from '../service';

const [url, episodeId] = process.argv.slice(2);
const service = createEpisodeService({
  prisma: createPrismaClient(url),
  getCatalog,
  defaultCatalogId: DEFAULT_CATALOG_ID,
});
const action = {
  assistant_message: 'Tell me more, please.',
  tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
  answer: null,
};
for (;;) {
  const view = await service.submitAction(episodeId, action);
  writeSync(1, `ack ${view.turn}\n`); // synchronous: an ack is out before the next step starts
  if (view.status === 'done') break;
}
