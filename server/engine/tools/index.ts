// Every tool, by name. Environments pick which of these they offer.

import { catalogGetProduct, catalogGetVariants, catalogRerank, catalogSearch } from './catalog-tools';
import { cartAdd, cartRemove, cartSetQuantity, cartView } from './cart-tools';
import { orderCheckout, orderGetStatus, orderList } from './order-tools';
import { policySearch } from './policy-tools';
import type { ToolDef } from './registry';
import { returnCheckEligibility, returnExchange, returnInitiate } from './return-tools';
import { datetimeNow, userVisitHistory } from './user-tools';

const TOOLS = [
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
] as const;

/** The name of a tool that exists; env tool lists are typed with it. */
export type ToolName = (typeof TOOLS)[number]['name'];

export const ALL_TOOLS: readonly ToolDef[] = TOOLS as readonly ToolDef[];

const BY_NAME = new Map<string, ToolDef>(ALL_TOOLS.map((t) => [t.name, t]));

/** The tool of that name; the name is checked by the compiler. */
export function getTool(name: ToolName): ToolDef {
  return BY_NAME.get(name)!;
}

/** The tool of that name, if any (for names that come from outside: agents' actions). */
export function findTool(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}
