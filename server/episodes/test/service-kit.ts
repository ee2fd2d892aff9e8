// Shared setup of the episode service tests (service.test.ts: the lifecycle; service-guards.test.ts:
// refusals, caps, concurrency): a small catalog, a migrated SQLite file and its SQL connection
// (the episode writer's), and describeEachStore, the suite around their cases.
import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest';
import type { Action } from '@/server/engine/types';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import { createEpisodeService, type EpisodeService, type EpisodeServiceDeps } from '../service';
import { createTestDb, type TestDb } from './db';

// A small catalog keeps the tests fast; the service does not care about its size.
export const CATALOG_ID = 'synthetic-s1-n3000';
export let catalog: Catalog;
export let db: TestDb;
/** The service under test (on the store describeEachStore is running). */
export let service: EpisodeService;
export const catalogOf = (id?: string) => {
  if (id !== CATALOG_ID) throw new Error(`unknown catalog ${id}`);
  return catalog;
};

/** A service on this file's database and catalog (and the current store), with `options` on top. */
export function serviceWith(options: Partial<EpisodeServiceDeps> = {}): EpisodeService {
  return createEpisodeService({
    prisma: db.prisma,
    getCatalog: catalogOf,
    defaultCatalogId: CATALOG_ID,
    db: db.sql,
    ...options,
  });
}

/** Registers the file's hooks: catalog and database once, live episodes cleared before each test. */
export function setupServiceTests(): void {
  beforeAll(() => {
    catalog = createSyntheticCatalog({ seed: 1, size: 3000 });
    db = createTestDb();
    service = serviceWith();
  }, 120_000); // migrating a fresh database is slow on a busy machine
  afterAll(async () => {
    await db?.cleanup();
  });
  beforeEach(() => service.clearLive());
}

export function describeEachStore(body: () => void): void {
  describe('episode service', body);
}

export type GoalItem = { productId: string; variantId: string | null; qty: number; title: string };
export const goalItems = (data: unknown) => (data as { items: GoalItem[] }).items;

export const searchAction = (query: string): Action => ({
  assistant_message: 'Let me look that up.',
  tool_calls: [{ name: 'catalog.search', args: { query } }],
  answer: null,
});

export async function storedPayloads(id: string) {
  const rows = await db.prisma.episodeEvent.findMany({ where: { episodeId: id }, orderBy: { seq: 'asc' } });
  rows.forEach((r, i) => expect(r.seq).toBe(i));
  return rows.map((r) => JSON.parse(r.payload));
}
