import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGS_DIR, importAmazonJsonl } from '@/server/engine/catalog/import';
import { createEpisode } from '@/server/engine';
import {
  DEFAULT_CATALOG_ID,
  evictOverCap,
  getCatalog,
  listCatalogs,
  loadedCatalogIds,
  onCatalogEvicted,
  UnknownCatalogError,
} from './catalogs';

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
  });

  it('accepts only canonical registry ids: no synthetic id outside the presets, no leading-zero aliases', () => {
    for (const id of [
      'synthetic-s7-n2000000',
      'synthetic-s01-n20000',
      'synthetic-s1-n020000',
      'synthetic-s1-n3000000',
      's07',
    ]) {
      expect(() => getCatalog(id)).toThrow(UnknownCatalogError);
    }
    expect(() => getCatalog('synthetic-s7-n2000000')).toThrow(/catalog ids are exact/);
    expect(loadedCatalogIds()).not.toContain('synthetic-s7-n2000000');
  });

  it('never builds a preset on request: an unprepared one names the prepare command', () => {
    const big = listCatalogs().find((c) => c.id === 'synthetic-s1-n2000000')!;
    if (big.prepared) return expect(big.kind).toBe('synthetic'); // a machine that prepared it already
    const t0 = performance.now();
    expect(() => getCatalog(big.id)).toThrow(
      /not prepared on this server; run: npm run catalog:prepare -- synthetic-s1-n2000000/,
    );
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('evicts the least recently used catalogs over the memory cap, never the default, and tells listeners', async () => {
    await importAmazonJsonl('fixtures/catalogs/amazon-sample.jsonl', { name: NAME });
    getCatalog(DEFAULT_CATALOG_ID);
    getCatalog(NAME);
    const told: string[] = [];
    onCatalogEvicted((id) => told.push(id));
    expect(evictOverCap(Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect(evictOverCap(0)).toEqual([NAME]);
    expect(told).toEqual([NAME]);
    expect(loadedCatalogIds()).toEqual([DEFAULT_CATALOG_ID]);
    expect(getCatalog(NAME).id).toBe(NAME); // loads again on the next use
  });
});
