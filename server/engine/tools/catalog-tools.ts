// catalog.search, catalog.rerank, catalog.get_product, catalog.get_variants.

import { z } from 'zod';
import type { Catalog, Product } from '../catalog/types';
import { frozenOrCopy } from '../copy';
import { applyRetrievalNoise } from '../catalog/noise';
import { tokenize } from '../catalog/tokenize';
import { productStock, currentVariants } from '../world/stock';
import type { WorldState } from '../world/state';
import { ENGINE_VERSION, REV3_RULES } from '../version';
import { defineTool, ToolError } from './registry';

export interface ProductCard {
  product_id: string;
  title: string;
  price: number;
  rating: number;
  ship_days: number;
  stock_qty: number;
  key_attrs: Record<string, string | number>;
}

export function productCard(product: Product, world: WorldState): ProductCard {
  return {
    product_id: product.id,
    title: product.title,
    price: product.price,
    rating: product.rating,
    ship_days: product.shipDays,
    stock_qty: productStock(world, product),
    key_attrs: { brand: product.brand, category: product.category, ...product.attrs },
  };
}

const idsOfCards = (result: unknown) => (result as ProductCard[]).map((c) => c.product_id);

const filtersSchema = z
  .strictObject({
    category: z.string().describe('leaf path or department, e.g. "electronics/chargers" or "electronics"'),
    brand: z.string(),
    store: z.string(),
    color: z.string(),
    size: z.string(),
    material: z.string(),
    connector_type: z.string(),
    item_form: z.string(),
    price_min: z.number().nonnegative(),
    price_max: z.number().nonnegative(),
    rating_min: z.number().min(1).max(5),
    ship_days_max: z.int().min(1),
    wattage_min: z.number().nonnegative(),
    wattage_max: z.number().nonnegative(),
    in_stock: z.boolean(),
  })
  .partial();

function requireProduct(catalog: Catalog, productId: string): Product {
  const product = catalog.get(productId);
  if (!product) throw new ToolError(`unknown product_id "${productId}"`);
  return product;
}

export const catalogSearch = defineTool({
  name: 'catalog.search',
  description:
    "Search the catalog by keywords with optional structured filters. Returns product cards, best first. top_k is capped by the episode's retrieval depth.",
  args: z.strictObject({
    query: z.string().min(1).describe('keywords, e.g. "usb-c charger 65w"'),
    filters: filtersSchema.optional(),
    top_k: z.int().min(1).optional().describe('number of results (default 10)'),
  }),
  run(args, ctx) {
    const topK = Math.min(args.top_k ?? 10, ctx.axes.top_k);
    const hits = ctx.catalog.search({ query: args.query, filters: args.filters, topK });
    // engine v3 (issue 31): noise keeps the stated filters; v1/v2 episodes replay with theirs
    const kept = (ctx.engineVersion ?? ENGINE_VERSION) >= REV3_RULES ? args.filters : undefined;
    const noisy = applyRetrievalNoise(hits, ctx.axes.eps_rank, ctx.rng, ctx.catalog, kept);
    return noisy.map((h) => productCard(requireProduct(ctx.catalog, h.productId), ctx.world));
  },
  seen: idsOfCards,
  retrieval: true,
  freshResult: true,
});

export const catalogRerank = defineTool({
  name: 'catalog.rerank',
  description:
    'Re-order candidate products by relevance to a query. Returns the ids, best first, with scores. Reranking does not retrieve: ids only count as seen once a search, get_product or get_variants result showed them.',
  args: z.strictObject({
    query: z.string().min(1),
    candidate_product_ids: z.array(z.string()).min(1).max(500),
    top_k: z.int().min(1).optional(),
  }),
  run(args, ctx) {
    for (const id of args.candidate_product_ids) requireProduct(ctx.catalog, id);
    const terms = [...new Set(tokens(args.query))];
    const scored = [...new Set(args.candidate_product_ids)].map((id) => {
      const p = ctx.catalog.get(id)!;
      const text = new Set(tokens(`${p.title} ${p.brand} ${p.category} ${Object.values(p.attrs).join(' ')}`));
      const score = terms.length === 0 ? 0 : terms.filter((t) => text.has(t)).length / terms.length;
      return { product_id: id, score: Math.round(score * 1000) / 1000 };
    });
    scored.sort((a, b) => b.score - a.score || a.product_id.localeCompare(b.product_id));
    // SPEC §6 rev 3: the episode's retrieval depth caps rerank too (engine v3 on)
    const cap = (ctx.engineVersion ?? ENGINE_VERSION) >= REV3_RULES ? ctx.axes.top_k : Infinity;
    return scored.slice(0, Math.min(args.top_k ?? scored.length, cap));
  },
  // No `seen`: rerank only echoes ids the agent supplied, so guessed ids (they are sequential)
  // must not join Seen through it (issue 7.5). Retrieval is search, get_product, get_variants.
  freshResult: true,
});

/** The catalog's own tokenizer (lower case, light plural stemming): "headphone" matches "Headphones". */
const tokens = (s: string) => tokenize(s);

export const catalogGetProduct = defineTool({
  name: 'catalog.get_product',
  description: 'Full details of one product.',
  args: z.strictObject({ product_id: z.string().min(1) }),
  run(args, ctx) {
    const p = requireProduct(ctx.catalog, args.product_id);
    return {
      product_id: p.id,
      title: p.title,
      description: p.description,
      category: p.category,
      department: p.department,
      brand: p.brand,
      store: p.store,
      // a catalog's cached product has frozen attrs and features: shared; anything else copied
      attrs: frozenOrCopy(p.attrs),
      features: frozenOrCopy(p.features),
      price: p.price,
      rating: p.rating,
      rating_count: p.ratingCount,
      ship_days: p.shipDays,
      stock_qty: productStock(ctx.world, p),
    };
  },
  seen: (result) => [(result as { product_id: string }).product_id],
  retrieval: true,
  freshResult: true,
});

export const catalogGetVariants = defineTool({
  name: 'catalog.get_variants',
  description: 'The variants of a product (e.g. colors, sizes, connector types) with their stock. May be empty.',
  args: z.strictObject({ product_id: z.string().min(1) }),
  run(args, ctx) {
    const p = requireProduct(ctx.catalog, args.product_id);
    // new variant objects; their attrs are a frozen product's cached ones or built for this call
    return { product_id: p.id, variants: currentVariants(ctx.world, p) };
  },
  seen: (result) => [(result as { product_id: string }).product_id],
  retrieval: true,
  freshResult: true,
});
