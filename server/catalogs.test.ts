import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGS_DIR, importAmazonJsonl } from '@/server/engine/catalog/import';
import { createEpisode } from '@/server/engine';
import { DEFAULT_CATALOG_ID, getCatalog, listCatalogs, UnknownCatalogError } from './catalogs';

const NAME = `test-import-${process.pid}`;
afterAll(() => fs.rmSync(path.join(DEFAULT_CATALOGS_DIR, NAME), { recursive: true, force: true }));

describe('catalog registry', () => {
  it('offers the default synthetic catalog first and loads it once', () => {
    const [first] = listCatalogs();
    expect(first).toMatchObject({ id: DEFAULT_CATALOG_ID, size: 20_000, kind: 'synthetic' });
    expect(getCatalog(DEFAULT_CATALOG_ID)).toBe(getCatalog(DEFAULT_CATALOG_ID));
    expect(getCatalog(DEFAULT_CATALOG_ID).size).toBe(20_000);
  });

  it('lists an imported catalog by name, loads it, and episodes run on it', async () => {
    await importAmazonJsonl('fixtures/catalogs/amazon-sample.jsonl', { name: NAME });
    const choice = listCatalogs().find((c) => c.id === NAME);
    expect(choice).toMatchObject({ kind: 'imported', size: 200 });
    const catalog = getCatalog(NAME);
    expect(catalog.id).toBe(NAME);
    const episode = createEpisode({ envId: 'CART', d: 0, seed: 3 }, catalog);
    expect(episode.reset().observation.customerMessage).toBeTruthy();
    expect(episode.catalogId).toBe(NAME);
  });

  it('names the known catalogs when asked for an unknown one', () => {
    expect(() => getCatalog('nope')).toThrow(UnknownCatalogError);
    expect(() => getCatalog('nope')).toThrow(/unknown catalog "nope"; known: synthetic-s1-n20000/);
    expect(() => getCatalog('synthetic-s1-n3000000')).toThrow(/size must be 1..2000000/);
  });
});
