// The catalog loader's worker thread gives the catalog this thread would read: same products,
// same index and bound table (computed over there), same search results; a bad file is refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCatalogFile, writeSyntheticFile } from '@/server/engine/catalog/catalog-file';
import { buildSyntheticIndex, generateSyntheticColumns, syntheticCatalogId } from '@/server/engine/catalog/synthetic';
import { readCatalogFileOffThread } from '.';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecomrlve-loader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('catalog loader thread', () => {
  it('reads the same catalog as this thread, with the bound table computed in the worker', async () => {
    const cols = generateSyntheticColumns({ seed: 5, size: 3000 });
    const file = path.join(dir, 'small.bin');
    writeSyntheticFile(file, cols, buildSyntheticIndex(cols), syntheticCatalogId(5, 3000), 'fp-test');
    const here = readCatalogFile(file);
    const there = await readCatalogFileOffThread(file);
    expect(there.fingerprint).toBe('fp-test');
    expect(there.catalog.id).toBe(here.catalog.id);
    expect(there.catalog.index.data.categoryMax).toBeInstanceOf(Float32Array); // not recomputed here
    const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const [a, b] = [there.catalog.index.bounds!.max, here.catalog.index.bounds!.max];
    expect(a.length).toBeGreaterThan(0);
    expect(Buffer.compare(bytes(a), bytes(b))).toBe(0); // (toEqual walks millions of floats slowly)
    for (const i of [0, 1234, 2999]) expect(there.catalog.at(i)).toEqual(here.catalog.at(i));
    for (const query of ['wireless headphones', 'blue cotton shirt', 'stainless steel']) {
      const hits = there.catalog.search({ query, topK: 10 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits).toEqual(here.catalog.search({ query, topK: 10 }));
    }
  }, 60_000);

  it("refuses a file that is not a catalog with the worker's message", async () => {
    const file = path.join(dir, 'junk.bin');
    fs.writeFileSync(file, 'not a catalog at all');
    await expect(readCatalogFileOffThread(file)).rejects.toThrow(/junk\.bin: not a catalog file/);
    await expect(readCatalogFileOffThread(path.join(dir, 'missing.bin'))).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
