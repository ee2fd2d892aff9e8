import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateSyntheticCatalog, syntheticCacheFile, type CacheLoadInfo } from './cache';
import { createSyntheticCatalog } from './synthetic';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('synthetic catalog disk cache', () => {
  const opts = { seed: 5, size: 5000, cacheDir: dir };
  const fresh = createSyntheticCatalog(opts);

  it('generates on the first call, loads the same catalog from disk on the next', () => {
    const infos: CacheLoadInfo[] = [];
    const a = loadOrCreateSyntheticCatalog(opts, (i) => infos.push(i));
    const b = loadOrCreateSyntheticCatalog(opts, (i) => infos.push(i));
    expect(infos.map((i) => i.source)).toEqual(['generated', 'cache']);
    expect(fs.existsSync(syntheticCacheFile(5, 5000, dir))).toBe(true);
    expect(b.id).toBe(fresh.id);
    expect(b.size).toBe(5000);
    for (let i = 0; i < 5000; i += 3) expect(b.at(i)).toEqual(fresh.at(i));
    for (const q of ['wall charger 65w', 'black hoodie', 'dog bed', 'zzz']) {
      const req = { query: q, filters: { in_stock: true }, topK: 25 };
      expect(b.search(req)).toEqual(fresh.search(req));
      expect(a.search(req)).toEqual(fresh.search(req));
    }
    expect(b.categories()).toEqual(fresh.categories());
  });

  it('keeps one file per (seed, size)', () => {
    loadOrCreateSyntheticCatalog({ ...opts, size: 300 });
    expect(syntheticCacheFile(5, 300, dir)).not.toBe(syntheticCacheFile(5, 5000, dir));
    expect(fs.existsSync(syntheticCacheFile(5, 300, dir))).toBe(true);
  });

  it('regenerates over a corrupt or truncated cache file', () => {
    const file = syntheticCacheFile(5, 5000, dir);
    for (const damage of [(f: string) => fs.truncateSync(f, 1000), (f: string) => fs.writeFileSync(f, 'garbage')]) {
      damage(file);
      const logs: string[] = [];
      const infos: CacheLoadInfo[] = [];
      const c = loadOrCreateSyntheticCatalog({ ...opts, log: (m) => logs.push(m) }, (i) => infos.push(i));
      expect(infos[0].source).toBe('generated');
      expect(logs.some((l) => l.includes('unusable'))).toBe(true);
      expect(c.at(17)).toEqual(fresh.at(17));
      expect(loadOrCreateSyntheticCatalog(opts).at(4999)).toEqual(fresh.at(4999));
    }
  });
});
