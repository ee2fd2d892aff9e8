// Every tool, by name. Environments pick which of these they offer.

import { catalogGetProduct, catalogGetVariants, catalogRerank, catalogSearch } from './catalog-tools';
import { cartAdd, cartRemove, cartSetQuantity, cartView } from './cart-tools';
import { orderCheckout, orderGetStatus, orderList } from './order-tools';
import { policySearch } from './policy-tools';
import type { ToolDef } from './registry';
import { returnCheckEligibility, returnExchange, returnInitiate } from './return-tools';
import { datetimeNow, userVisitHistory } from './user-tools';

export const ALL_TOOLS: readonly ToolDef[] = [
  catalogSearch,
  catalogRerank,
  catalogGetProduct,
  catalogGetVariants,
  cartView,
  cartAdd,
  cartRemove,
  cartSetQuantity,
  orderList,
  orderGetStatus,
  orderCheckout,
  returnCheckEligibility,
  returnInitiate,
  returnExchange,
  policySearch,
  userVisitHistory,
  datetimeNow,
] as ToolDef[];

const BY_NAME = new Map(ALL_TOOLS.map((t) => [t.name, t]));

export function getTool(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}

export function toolsNamed(names: readonly string[]): ToolDef[] {
  return names.map((n) => {
    const tool = BY_NAME.get(n);
    if (!tool) throw new Error(`no tool named ${n}`);
    return tool;
  });
}
