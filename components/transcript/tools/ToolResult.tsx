'use client';
// One renderer per tool family; falls back to JSON for shapes it does not know.
import { CartTable, isCartData } from './CartTable';
import { DatetimeResult, GenericResult, IdList, isDatetime } from './MiscResults';
import { isOrder, isOrderList, NewOrderResult, OrderCard, OrderListResult } from './OrderCards';
import { isPolicyHitList, PolicyHits } from './PolicyHits';
import { isProductCardList, ProductCards } from './ProductCards';
import { isProductDetail, ProductDetail } from './ProductDetail';
import { isRerankList, RerankList } from './RerankList';
import { EligibilityCard, ExchangeRecordCard, isEligibility, isExchangeRecord, isReturnRecord, ReturnRecordCard } from './ReturnCards';
import { isVariantsData, VariantList } from './VariantList';

export function ToolResultView({ name, result }: { name: string; result: unknown }) {
  const family = name.split('.')[0];
  if (name === 'catalog.search' || name === 'user.get_visit_history') {
    if (isProductCardList(result)) return <ProductCards cards={result} />;
  }
  if (name === 'catalog.rerank') {
    if (isRerankList(result)) return <RerankList hits={result} />;
    if (Array.isArray(result) && result.every((x) => typeof x === 'string')) return <IdList ids={result as string[]} />;
    if (isProductCardList(result)) return <ProductCards cards={result} />;
  }
  if (name === 'catalog.get_product' && isProductDetail(result)) return <ProductDetail p={result} />;
  if (name === 'catalog.get_variants' && isVariantsData(result)) return <VariantList data={result} />;
  if (family === 'cart' && isCartData(result)) return <CartTable cart={result} />;
  if (name === 'order.list' && isOrderList(result)) return <OrderListResult data={result} />;
  if (name === 'order.get_status' && isOrder(result)) return <OrderCard order={result} />;
  if (name === 'order.checkout' && isOrder(result)) return <NewOrderResult order={result} />;
  if (name === 'return.check_eligibility' && isEligibility(result)) return <EligibilityCard e={result} />;
  if (name === 'return.initiate' && isReturnRecord(result)) return <ReturnRecordCard r={result} />;
  if (name === 'return.exchange' && isExchangeRecord(result)) return <ExchangeRecordCard x={result} />;
  if (name === 'policy.search' && isPolicyHitList(result)) return <PolicyHits hits={result} />;
  if (name === 'datetime.now' && isDatetime(result)) return <DatetimeResult value={result} />;
  return <GenericResult value={result} />;
}
