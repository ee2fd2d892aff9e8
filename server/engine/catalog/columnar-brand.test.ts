// A catalog built by one copy of the engine module is recognised by another copy (Next bundles
// the engine into several chunks that share one catalog cache): `instanceof` failed there and a
// PD/SUB/RETURN start answered 500 ("the catalog must be a ColumnarCatalog").
import { describe, expect, it } from 'vitest';
import { testCatalog } from '../testing/catalog-fixture';
import { ColumnarCatalog, isColumnarCatalog } from './columnar-catalog';

describe('isColumnarCatalog', () => {
  it('recognises a catalog made by another copy of the module, where instanceof does not', async () => {
    const path = './columnar-catalog?another-chunk';
    const other = (await import(/* @vite-ignore */ path)) as typeof import('./columnar-catalog');
    const catalog = testCatalog();
    expect(other.ColumnarCatalog).not.toBe(ColumnarCatalog);
    expect(catalog instanceof other.ColumnarCatalog).toBe(false);
    expect(other.isColumnarCatalog(catalog)).toBe(true);
  });

  it('refuses what is not one', () => {
    expect(isColumnarCatalog({ size: 3, get: () => undefined })).toBe(false);
    expect(isColumnarCatalog(null)).toBe(false);
  });
});
