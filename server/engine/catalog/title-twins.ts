// Whether another product has the very same title (case-insensitive): larger catalogs hold
// such twins, and a customer naming one then adds a detail (CART). A twin has every token
// of the title, so it sits in the postings of the title's rarest term: a few dozen products
// to compare even at 2M products, where a full-text search per item cost milliseconds.

import { isColumnarCatalog } from './columnar-catalog';
import type { TitleParts } from './title-parts';
import { tokenize } from './tokenize';
import type { Catalog, Product } from './types';

export function hasTitleTwin(catalog: Catalog, product: Product): boolean {
  const title = product.title.toLowerCase();
  if (!isColumnarCatalog(catalog)) {
    return catalog
      .search({ query: product.title, topK: 50 })
      .some((h) => h.productId !== product.id && catalog.get(h.productId)?.title.toLowerCase() === title);
  }
  const index = catalog.index;
  const tokens = tokenize(title);
  let rarest = -1;
  for (const token of tokens) {
    const t = index.termId(token);
    if (t < 0) return false; // a word no product has: not even this one is indexed under it
    if (rarest < 0 || index.docFreq(t) < index.docFreq(rarest)) rarest = t;
  }
  if (rarest < 0) return false;
  const self = catalog.indexOf(product.id);
  const parts = catalog.text.titleParts;
  const { offsets, docs } = index.data;
  for (let p = offsets[rarest]; p < offsets[rarest + 1]; p++) {
    const d = docs[p];
    if (d === self) continue;
    // a twin's title has the very same tokens: compared part by part, no title is built for the
    // others (at 2M products the rarest term's postings are long: issue 13)
    if (parts && !sameTokens(parts, d, tokens)) continue;
    if (catalog.titleAt(d).toLowerCase() === title) return true;
  }
  return false;
}

const scratch = new Int32Array(64);

/** Whether product d's title tokens (its parts' tokens in order) are exactly `tokens`. */
function sameTokens(parts: TitleParts, d: number, tokens: readonly string[]): boolean {
  const n = parts.of(d, scratch);
  let k = 0;
  for (let j = 0; j < n; j++) {
    const words = parts.tokens(scratch[j]);
    for (let w = 0; w < words.length; w++) if (k >= tokens.length || words[w] !== tokens[k++]) return false;
  }
  return k === tokens.length;
}
