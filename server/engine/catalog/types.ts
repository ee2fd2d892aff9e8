// The catalog contract shared by the synthetic generator, imported catalogs,
// search and every tool that reads products. Engine code depends on this file
// only, never on a concrete catalog implementation.

export type AttrValue = string | number;

export interface Product {
  id: string;
  title: string;
  description: string;
  /** Leaf category path, e.g. "electronics/chargers". */
  category: string;
  /** First segment of the category path, e.g. "electronics". */
  department: string;
  brand: string;
  store: string;
  /** color, size, material, connector_type, wattage, item_form, skin_type, finish_type, screen_size_in, weight_lb, ... */
  attrs: Record<string, AttrValue>;
  features: string[];
  price: number;
  /** 1..5 */
  rating: number;
  ratingCount: number;
  /** 1..14 */
  shipDays: number;
  stockQty: number;
  /** The short product-type noun a customer would use ("Wall Charger"), when known. */
  noun?: string;
}

/** Structured filters of catalog.search (SPEC §3). All optional; all must hold. */
export interface SearchFilters {
  category?: string; // matches the leaf path or any prefix of it ("electronics" or "electronics/chargers")
  brand?: string;
  store?: string;
  color?: string;
  size?: string;
  material?: string;
  connector_type?: string;
  item_form?: string;
  skin_type?: string;
  finish_type?: string;
  price_min?: number;
  price_max?: number;
  rating_min?: number;
  ship_days_max?: number;
  wattage_min?: number;
  wattage_max?: number;
  /** true: stock > 0 only; false: out-of-stock only. Semantics of every filter: catalog/filters.ts. */
  in_stock?: boolean;
}

export interface SearchRequest {
  query: string;
  filters?: SearchFilters;
  topK: number;
}

export interface SearchHit {
  productId: string;
  score: number;
}

export interface Catalog {
  /** Stable id recorded by every episode, e.g. "synthetic-s1-n20000" or "amazon". */
  readonly id: string;
  readonly size: number;
  get(productId: string): Product | undefined;
  /** Product by dense index 0..size-1 (used for seeded sampling). */
  at(index: number): Product;
  /**
   * Deterministic lexical search (BM25), ties broken by product index (catalog
   * order; for the synthetic catalog that is id order). No retrieval noise here.
   * An empty query returns the filtered products in catalog order, score 0.
   */
  search(req: SearchRequest): SearchHit[];
  /** All leaf category paths present, sorted. */
  categories(): readonly string[];
  /** Dense indices of the products in a leaf category (sorted ascending). */
  indicesInCategory(category: string): readonly number[];
  /** Dense index of a product id, or -1 (cheaper than get when only the index is needed). */
  indexOf?(productId: string): number;
  /** Leaf category of the product at an index, without materialising it. */
  categoryAt?(index: number): string;
  /** Brand of the product at an index, without materialising it. */
  brandAt?(index: number): string;
}
