'use client';
// One renderer per tool family; falls back to JSON for shapes it does not know.
import { CartTable, isCartData } from './CartTable';
import { DatetimeResult, GenericResult, IdList, isDatetime } from './MiscResults';
import { isProductCardList, ProductCards } from './ProductCards';
import { isProductDetail, ProductDetail } from './ProductDetail';
import { isVariantsData, VariantList } from './VariantList';

export function ToolResultView({ name, result }: { name: string; result: unknown }) {
  const family = name.split('.')[0];
  if (name === 'catalog.search' || name === 'user.get_visit_history') {
    if (isProductCardList(result)) return <ProductCards cards={result} />;
  }
  if (name === 'catalog.rerank') {
    const ids = Array.isArray(result) ? result : (result as { product_ids?: unknown })?.product_ids;
    if (Array.isArray(ids) && ids.every((x) => typeof x === 'string')) return <IdList ids={ids as string[]} />;
    if (isProductCardList(result)) return <ProductCards cards={result} />;
  }
  if (name === 'catalog.get_product' && isProductDetail(result)) return <ProductDetail p={result} />;
  if (name === 'catalog.get_variants' && isVariantsData(result)) return <VariantList data={result} />;
  if (family === 'cart' && isCartData(result)) return <CartTable cart={result} />;
  if (name === 'datetime.now' && isDatetime(result)) return <DatetimeResult value={result} />;
  return <GenericResult value={result} />;
}
