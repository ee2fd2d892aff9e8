// The cached order-history lookups (describe-keys.ts, state.ts's day table) against the
// computations they replace, over every product of a catalog larger than the cache (so slots are
// shared and overwritten) and over dates inside and outside the day table.
import { describe, expect, it } from 'vitest';
import { isDeniedCategory } from '../catalog/taxonomy';
import { createSyntheticCatalog } from '../catalog/synthetic';
import { Rng } from '../random';
import { describeKey } from './orders';
import { orderableKeys } from './describe-keys';
import { addDays, isoDate } from './state';

describe('orderableKeys', () => {
  it('gives each product its describe key when orderable, else null, read in any order (40k products, 32k slots)', () => {
    const catalog = createSyntheticCatalog({ seed: 3, size: 40_000 });
    const keys = orderableKeys(catalog);
    const want = (i: number) => {
      const p = catalog.at(i);
      return isDeniedCategory(p.category) || !(p.price > 0) ? null : describeKey(p);
    };
    const rng = new Rng(7);
    const order = [
      ...Array.from({ length: catalog.size }, (_, i) => i),
      ...Array.from({ length: 60_000 }, () => rng.int(0, catalog.size - 1)),
    ];
    let denied = 0;
    for (const i of order) {
      const expected = want(i);
      if (expected === null) denied++;
      expect(keys.keyOf(i), `product ${i}`).toBe(expected);
    }
    expect(denied).toBeGreaterThan(0); // the synthetic catalog has denied categories: both answers are checked
  });
});

describe('addDays', () => {
  it('equals the date arithmetic on milliseconds, for days in and outside the table (1970–2149)', () => {
    const DAY_MS = 86_400_000;
    const rng = new Rng(11);
    for (let trial = 0; trial < 5000; trial++) {
      const base = rng.int(-30_000, 80_000); // days since 1970: some before 1970 and after 2149
      const iso = isoDate(base * DAY_MS);
      const days = rng.int(-400, 400);
      expect(addDays(iso, days), `${iso} ${days}`).toBe(isoDate((base + days) * DAY_MS));
    }
  });
});
