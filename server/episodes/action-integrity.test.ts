// What is stored replays exactly, whatever was sent (issue 29, integrity): values JSON or UTF-8
// storage would change, and nesting deep enough to overflow a walker, are refused before the
// episode sees them (server/lib/action-value.ts); the episode goes on and replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService, type EpisodeService } from './service';
import { createTestDb, expectServiceError, type TestDb } from './test/db';

let db: TestDb;
let service: EpisodeService;
beforeAll(() => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: testCatalog, defaultCatalogId: testCatalog().id });
}, 120_000);
afterAll(() => db?.cleanup());

const search = (args: string) =>
  JSON.parse(`{"assistant_message":"Searching.","tool_calls":[{"name":"catalog.search","args":${args}}]}`);

describe('actions that would not replay as sent', () => {
  it('1e309, a lone surrogate and 100k-deep nesting are refused; what was stored replays', async () => {
    const ep = await service.startEpisode({ envId: 'CART', d: 1, seed: 5 });
    await service.submitAction(ep.id, search('{"query":"lamp","limit":5}'));
    await expectServiceError(service.submitAction(ep.id, search('{"query":"lamp","limit":1e309}')), 'BAD_INPUT');
    await expectServiceError(service.submitAction(ep.id, search('{"query":"l\\ud800mp"}')), 'BAD_INPUT');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    await expectServiceError(service.submitAction(ep.id, search(`{"query":${deep}}`)), 'BAD_INPUT');
    // as text, 25k levels (under the 64 KB limit, which refuses 100k levels as TOO_LARGE)
    const deepText = '['.repeat(25_000) + ']'.repeat(25_000);
    await expectServiceError(service.submitAction(ep.id, `{"tool_calls":[{"args":${deepText}}]}`), 'BAD_INPUT');
    await expectServiceError(service.submitAction(ep.id, 'I found it \udc00'), 'BAD_INPUT');
    const live = await service.getEpisode(ep.id);
    expect(live.turn).toBe(1);
    expect(live.status).toBe('active');

    // rebuilt from the store alone (a restart): the same episode
    service.clearLive();
    const rebuilt = await service.getEpisode(ep.id);
    expect(rebuilt.events).toEqual(live.events);
    await expect(service.getWorld(ep.id)).resolves.toBeTruthy();
  });
});
