// Variants are synthesised (SPEC §3): real catalogs rarely carry them. They are a
// pure function of the product, so every episode, tool and verifier agrees on
// them without storing anything.

import type { AttrValue, Product } from '../catalog/types';
import { VARIANT_PRIORITY, attributeValues, categoryInfo } from '../catalog/taxonomy';
import { hashUnit } from '../random';

export interface Variant {
  variant_id: string;
  product_id: string;
  attrs: Record<string, AttrValue>;
  price_delta: number;
  stock_qty: number;
}

const slug = (v: AttrValue) => String(v).trim().replace(/\s+/g, '-');

export function variantId(productId: string, attr: string, value: AttrValue): string {
  return `${productId}_v_${attr}_${slug(value)}`;
}

/** Values this attribute takes in the product's own category (so distractors are plausible), else anywhere. */
function vocabularyFor(product: Product, attr: string): readonly string[] {
  const own = categoryInfo(product.category)?.def.attrs.find((a) => a.name === attr)?.values;
  return own && own.length >= 3 ? own : attributeValues(attr);
}

/**
 * The attribute this product varies on, or null when it has no variants. An attribute
 * whose value the title states ("… Size 55L, Green") is skipped: a "Blue" variant of a
 * product titled "Green" reads as a contradiction.
 */
export function variantAttribute(product: Product): string | null {
  const priority = VARIANT_PRIORITY[product.department] ?? [];
  const title = product.title.toLowerCase();
  for (const attr of priority) {
    const value = product.attrs[attr];
    if (value === undefined || title.includes(String(value).toLowerCase())) continue;
    if (vocabularyFor(product, attr).length >= 3) return attr;
  }
  return null;
}

// A frozen product's variants, computed once per product object (frozen too: every caller shares
// them). Cart views, stock lookups and variant checks ask for them many times per step (issue 13).
// A product that can still change (one built by hand) gets them computed on every call.
const VARIANTS = new WeakMap<Product, readonly Variant[]>();

/** The product's own value first, then two distractors picked by a hash of its id. Frozen, shared. */
export function variantsOf(product: Product): readonly Variant[] {
  if (!Object.isFrozen(product)) return computeVariants(product);
  let variants = VARIANTS.get(product);
  if (!variants) {
    variants = Object.freeze(
      computeVariants(product).map((v) => {
        Object.freeze(v.attrs);
        return Object.freeze(v);
      }),
    );
    VARIANTS.set(product, variants);
  }
  return variants;
}

function computeVariants(product: Product): Variant[] {
  const attr = variantAttribute(product);
  if (!attr) return [];
  const base = product.attrs[attr];
  const vocabulary = vocabularyFor(product, attr).filter((v) => slug(v).toLowerCase() !== slug(base).toLowerCase());
  const values: AttrValue[] = [base];
  for (let i = 0; values.length < 3 && i < 16; i++) {
    const candidate = vocabulary[Math.floor(hashUnit(product.id, 'variant', i) * vocabulary.length)];
    const asValue: AttrValue = typeof base === 'number' ? Number(candidate) : candidate;
    if (!values.some((v) => slug(v) === slug(asValue))) values.push(asValue);
  }
  return values.map((value, i) => ({
    variant_id: variantId(product.id, attr, value),
    product_id: product.id,
    attrs: { [attr]: value },
    price_delta: i === 0 ? 0 : Math.round((hashUnit(product.id, 'delta', i) - 0.3) * product.price * 0.2 * 100) / 100,
    stock_qty:
      product.stockQty === 0 ? 0 : i === 0 ? product.stockQty : 3 + Math.floor(hashUnit(product.id, 'stock', i) * 40),
  }));
}

export function findVariant(product: Product, id: string): Variant | undefined {
  return variantsOf(product).find((v) => v.variant_id === id);
}
