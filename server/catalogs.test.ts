import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readCatalogFile } from '@/server/engine/catalog/catalog-file';
import { DEFAULT_CATALOGS_DIR, importAmazonJsonl, importedCatalogFile } from '@/server/engine/catalog/import';
import { createEpisode } from '@/server/engine';
import { isAppError } from '@/server/lib/errors';
import {
  BYTES_PER_PRODUCT,
  catalogIdleMs,
  catalogMemoryCapBytes,
  DEFAULT_CATALOG_ID,
  evictIdle,
  evictOverCap,
  getCatalog,
  listCatalogs,
  loadCatalog,
  loadCatalogsOffThread,
  loadedCatalogIds,
  loadingCatalogIds,
  onCatalogEvicted,
  slicePause,
} from './catalogs';

const NAME = `test-import-${process.pid}`;
const NAME2 = `test-import2-${process.pid}`;
afterAll(() => {
  for (const n of [NAME, NAME2]) fs.rmSync(path.join(DEFAULT_CATALOGS_DIR, n), { recursive: true, force: true });
});

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
    expect(() => getCatalog('nope')).toThrow(/^unknown catalog "/);
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
      expect(() => getCatalog(id)).toThrow(/^unknown catalog "/);
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

  it('evicts least recently used first: a catalog used since stays, the cap comes from ECOMRLVE_CATALOG_MEMORY_MB', async () => {
    await importAmazonJsonl('fixtures/catalogs/amazon-sample.jsonl', { name: NAME2 });
    evictOverCap(0);
    getCatalog(NAME);
    getCatalog(NAME2);
    getCatalog(NAME); // used again: NAME2 is now the least recently used
    const defaultAndOneImport = 20_000 * BYTES_PER_PRODUCT.synthetic + 200 * BYTES_PER_PRODUCT.imported;
    expect(evictOverCap(defaultAndOneImport)).toEqual([NAME2]);
    expect(loadedCatalogIds()).toEqual([DEFAULT_CATALOG_ID, NAME]);
    expect(catalogMemoryCapBytes({ ECOMRLVE_CATALOG_MEMORY_MB: '64' })).toBe(64 * 1024 * 1024);
    expect(catalogMemoryCapBytes({ ECOMRLVE_CATALOG_MEMORY_MB: 'lots' })).toBe(1024 * 1024 * 1024);
  });

  it('evicts catalogs no request used for the idle time (never the default); ECOMRLVE_CATALOG_IDLE_S sets it', async () => {
    await importAmazonJsonl('fixtures/catalogs/amazon-sample.jsonl', { name: NAME2 });
    evictOverCap(0);
    getCatalog(DEFAULT_CATALOG_ID);
    getCatalog(NAME);
    const t0 = Date.now();
    const told: string[] = [];
    onCatalogEvicted((id) => told.push(id));
    expect(evictIdle(t0 + 1000, 60_000)).toEqual([]); // used a second ago
    expect(evictIdle(t0 + 61_000, 60_000)).toEqual([NAME]);
    expect(told).toEqual([NAME]);
    expect(loadedCatalogIds()).toEqual([DEFAULT_CATALOG_ID]);
    // a use renews the clock: of two catalogs, only the one left alone goes
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(t0);
      getCatalog(NAME);
      getCatalog(NAME2);
      vi.setSystemTime(t0 + 50_000);
      getCatalog(NAME); // cached: its clock restarts
      expect(evictIdle(t0 + 70_000, 60_000)).toEqual([NAME2]);
      expect(loadedCatalogIds()).toEqual([DEFAULT_CATALOG_ID, NAME]);
    } finally {
      vi.useRealTimers();
    }
    expect(catalogIdleMs({})).toBe(600_000);
    expect(catalogIdleMs({ ECOMRLVE_CATALOG_IDLE_S: '5' })).toBe(5000);
    expect(catalogIdleMs({ ECOMRLVE_CATALOG_IDLE_S: '0' })).toBe(0);
    expect(catalogIdleMs({ ECOMRLVE_CATALOG_IDLE_S: 'soon' })).toBe(600_000);
  });

  it('pauses a build in slices only once its time budget is spent, and then lets a macrotask run', async () => {
    let t = 0;
    const pause = slicePause(5, () => t);
    const order: string[] = [];
    const turn = () => new Promise<void>((r) => setImmediate(() => (order.push('other request'), r())));
    t = 3;
    let other = turn();
    await pause(); // within the budget: goes on before anything else runs
    order.push('build');
    await other;
    t = 9;
    other = turn();
    await pause(); // budget spent: the other request runs first
    order.push('build');
    await other;
    t = 12; // 3 ms since that pause: no turn again
    other = turn();
    await pause();
    order.push('build');
    await other;
    expect(order).toEqual(['build', 'other request', 'other request', 'build', 'build', 'other request']);
  });

  it('in the app, reads a catalog in a worker thread: requests meanwhile get BUSY, concurrent loads share one read', async () => {
    evictOverCap(0);
    loadCatalogsOffThread(true);
    try {
      let busy: unknown;
      try {
        getCatalog(NAME);
      } catch (e) {
        busy = e;
      }
      expect(isAppError(busy) && busy.code).toBe('BUSY');
      expect((busy as Error).message).toMatch(/catalog "test-import-\d+" is loading \(200 products\); retry/);
      expect(loadingCatalogIds()).toEqual([NAME]);
      const [a, b] = await Promise.all([loadCatalog(NAME), loadCatalog(NAME)]);
      expect(a).toBe(b);
      expect(loadingCatalogIds()).toEqual([]);
      expect(getCatalog(NAME)).toBe(a);
      const inThread = readCatalogFile(importedCatalogFile(NAME)).catalog;
      expect(a.at(17)).toEqual(inThread.at(17));
      const hits = a.search({ query: 'usb cable', topK: 5 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits).toEqual(inThread.search({ query: 'usb cable', topK: 5 }));
      expect(getCatalog(DEFAULT_CATALOG_ID).size).toBe(20_000); // the default is never deferred
      await expect(loadCatalog('s07')).rejects.toThrow(/^unknown catalog "/);
    } finally {
      loadCatalogsOffThread(false);
    }
  }, 60_000);
});
