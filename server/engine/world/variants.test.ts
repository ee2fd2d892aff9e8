import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Product } from '../catalog/types';
import { findVariant, variantsOf } from './variants';

const catalog = createSyntheticCatalog({ seed: 3, size: 400 });

describe('variantsOf', () => {
  it('gives a catalog product the variants its fields give, once, frozen and shared', () => {
    let withVariants = 0;
    for (let i = 0; i < catalog.size; i++) {
      const product = catalog.at(i);
      const variants = variantsOf(product);
      // an unfrozen copy of the same fields is computed afresh: the cache changes nothing
      expect(variants).toEqual(variantsOf({ ...product }));
      expect(variantsOf(product)).toBe(variants);
      expect(Object.isFrozen(variants) && variants.every((v) => Object.isFrozen(v) && Object.isFrozen(v.attrs))).toBe(
        true,
      );
      for (const v of variants) expect(findVariant(product, v.variant_id)).toBe(v);
      if (variants.length > 0) withVariants++;
    }
    expect(withVariants).toBeGreaterThan(50);
  });

  it('recomputes for a product that can still change', () => {
    const base = catalog.at([...Array(catalog.size).keys()].find((i) => variantsOf(catalog.at(i)).length > 0)!);
    const product: Product = { ...base };
    const before = variantsOf(product)[0].stock_qty;
    product.stockQty = before + 7;
    expect(variantsOf(product)[0].stock_qty).toBe(before + 7);
  });
});
