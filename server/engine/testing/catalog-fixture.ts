// One small synthetic catalog shared by engine tests (built once per test file).
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Catalog } from '../catalog/types';

let cached: Catalog | null = null;
export function testCatalog(): Catalog {
  cached ??= createSyntheticCatalog({ seed: 1, size: 20_000 });
  return cached;
}
