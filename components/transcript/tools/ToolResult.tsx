'use client';
// One renderer per tool, by name. The map is keyed by ToolName, so a new tool does not
// compile until it has a renderer here. A renderer returns null for a shape it does not
// know (an error text, an older result), and the result is shown as JSON.
import type { ReactNode } from 'react';
import type { ToolName } from '@/server/engine';
import { CartTable, isCartData } from './CartTable';
import { DatetimeResult, GenericResult, IdList, isDatetime } from './MiscResults';
import { isOrder, isOrderList, NewOrderResult, OrderCard, OrderListResult } from './OrderCards';
import { isPolicyHitList, PolicyHits } from './PolicyHits';
import { isProductCardList, ProductCards } from './ProductCards';
import { isProductDetail, ProductDetail } from './ProductDetail';
import { isRerankList, RerankList } from './RerankList';
import {
  EligibilityCard,
  ExchangeRecordCard,
  isEligibility,
  isExchangeRecord,
  isReturnRecord,
  ReturnRecordCard,
} from './ReturnCards';
import { isVariantsData, VariantList } from './VariantList';

type Renderer = (result: unknown) => ReactNode | null;

const productCards: Renderer = (r) => (isProductCardList(r) ? <ProductCards cards={r} /> : null);
const cart: Renderer = (r) => (isCartData(r) ? <CartTable cart={r} /> : null);
const isIdList = (r: unknown): r is string[] => Array.isArray(r) && r.every((x) => typeof x === 'string');

const RENDERERS: Record<ToolName, Renderer> = {
  'catalog.search': productCards,
  'user.get_visit_history': productCards,
  'catalog.rerank': (r) =>
    isRerankList(r) ? <RerankList hits={r} /> : isIdList(r) ? <IdList ids={r} /> : productCards(r),
  'catalog.get_product': (r) => (isProductDetail(r) ? <ProductDetail p={r} /> : null),
  'catalog.get_variants': (r) => (isVariantsData(r) ? <VariantList data={r} /> : null),
  'cart.view': cart,
  'cart.add': cart,
  'cart.remove': cart,
  'cart.set_quantity': cart,
  'order.list': (r) => (isOrderList(r) ? <OrderListResult data={r} /> : null),
  'order.get_status': (r) => (isOrder(r) ? <OrderCard order={r} /> : null),
  'order.checkout': (r) => (isOrder(r) ? <NewOrderResult order={r} /> : null),
  'return.check_eligibility': (r) => (isEligibility(r) ? <EligibilityCard e={r} /> : null),
  'return.initiate': (r) => (isReturnRecord(r) ? <ReturnRecordCard r={r} /> : null),
  'return.exchange': (r) => (isExchangeRecord(r) ? <ExchangeRecordCard x={r} /> : null),
  'policy.search': (r) => (isPolicyHitList(r) ? <PolicyHits hits={r} /> : null),
  'datetime.now': (r) => (isDatetime(r) ? <DatetimeResult value={r} /> : null),
};

export function ToolResultView({ name, result }: { name: string; result: unknown }) {
  // names come from stored events (an agent may have called a tool that does not exist)
  const render = Object.hasOwn(RENDERERS, name) ? RENDERERS[name as ToolName] : null;
  return render?.(result) ?? <GenericResult value={result} />;
}
