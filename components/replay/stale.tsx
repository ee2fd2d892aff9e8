'use client';
// Product cards in the replay are marked stale when a later world change (in the same turn,
// after the tool ran, or any later turn) took the product out of stock.
import { createContext, useContext } from 'react';

export const StaleContext = createContext<{ outOfStock: Readonly<Record<string, number>>; turn: number } | null>(null);

/** The turn the product went out of stock, when that happened at or after the card's turn. */
export function useStaleSince(productId: string): number | null {
  const ctx = useContext(StaleContext);
  const t = ctx?.outOfStock[productId];
  return ctx && t !== undefined && t >= ctx.turn ? t : null;
}
