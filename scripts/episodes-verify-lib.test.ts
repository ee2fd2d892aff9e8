import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService, type EpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { verifyEpisodes } from './episodes-verify-lib';

let db: TestDb;
let service: EpisodeService;
beforeAll(() => {
  db = createTestDb();
  service = createEpisodeService({ prisma: db.prisma, getCatalog: testCatalog, defaultCatalogId: testCatalog().id });
}, 120_000);
afterAll(() => db?.cleanup());

const search = (query: string) => ({
  assistant_message: 'Searching.',
  tool_calls: [{ name: 'catalog.search', args: { query } }],
  answer: null,
});

describe('verifyEpisodes', () => {
  it('replays every stored episode and names the one whose stored action no longer gives its log', async () => {
    const ids: string[] = [];
    for (let seed = 1; seed <= 3; seed++) {
      const ep = await service.startEpisode({ envId: 'CART', d: 1, seed });
      await service.submitAction(ep.id, search('lamp'));
      ids.push(ep.id);
    }
    expect(await verifyEpisodes(service)).toEqual({ checked: 3, diverged: [], skipped: [] });

    // what a `1e309` stored as null did: the stored action differs from the one that was played
    const action = await db.prisma.episodeAction.findFirstOrThrow({ where: { episodeId: ids[1] } });
    await db.prisma.episodeAction.update({
      where: { id: action.id },
      data: { raw: action.raw.replace('lamp', 'sofa') },
    });
    const report = await verifyEpisodes(service);
    expect(report.checked).toBe(3);
    expect(report.diverged.map((d) => d.id)).toEqual([ids[1]]);
    expect(report.diverged[0].problem).toMatch(/diverged at event/);
  });
});
