'use client';
// Product titles for results and answers that carry only ids (catalog.rerank,
// recommended_product_ids). A title some tool result of the episode showed is what the agent
// knew; the others are looked up in the catalog for display and marked as such.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { EpisodeEvent } from '@/server/engine/types';
import { useTRPC } from '@/lib/trpc';
import { collectProductIds, collectProductTitles, collectTitlesInto } from './product-ids';

export { collectProductIds, collectProductTitles, collectTitlesInto };

export interface KnownTitle {
  title: string;
  /** true: no tool result of the episode showed it; looked up for display */
  lookedUp: boolean;
}

export const ProductTitlesContext = createContext<ReadonlyMap<string, KnownTitle>>(new Map());

export const useProductTitle = (productId: string): KnownTitle | undefined =>
  useContext(ProductTitlesContext).get(productId);

const MAX_LOOKUP = 200;

/**
 * Provides titles to everything inside (transcript, world panel): those the events show, plus,
 * with a catalog id, the rest of the ids the events and `extra` (e.g. the world) name,
 * looked up in the catalog.
 */
export function ProductTitlesProvider({
  events,
  catalogId,
  extra,
  children,
}: {
  events: readonly EpisodeEvent[];
  catalogId?: string;
  extra?: unknown;
  children: ReactNode;
}) {
  const trpc = useTRPC();
  const shown = useMemo(() => collectTitlesInto(collectProductTitles(events), extra), [events, extra]);
  const missing = useMemo(() => {
    const ids = new Set<string>();
    for (const e of events) {
      if (e.kind === 'tool_call' && e.error === null) collectProductIds(ids, { result: e.result });
      if (e.kind === 'answer') collectProductIds(ids, e.answer);
    }
    collectProductIds(ids, extra);
    return [...ids]
      .filter((id) => !shown.has(id))
      .sort()
      .slice(0, MAX_LOOKUP);
  }, [events, extra, shown]);
  const lookup = useQuery({
    ...trpc.catalog.titles.queryOptions({ catalogId: catalogId ?? '', ids: missing }),
    enabled: catalogId !== undefined && missing.length > 0,
    staleTime: Infinity,
  });
  const titles = useMemo(() => {
    const out = new Map<string, KnownTitle>();
    for (const [id, title] of shown) out.set(id, { title, lookedUp: false });
    for (const [id, title] of Object.entries(lookup.data ?? {}))
      if (!out.has(id)) out.set(id, { title, lookedUp: true });
    return out;
  }, [shown, lookup.data]);
  return <ProductTitlesContext.Provider value={titles}>{children}</ProductTitlesContext.Provider>;
}

/** A product's title; muted (with a tooltip) when it was looked up for display. `className` styles shown titles. */
export function ProductTitle({ known, className }: { known: KnownTitle | undefined; className?: string }) {
  if (!known) return null;
  return known.lookedUp ? (
    <span
      className="text-slate-500"
      title="Looked up in the catalog for display: the tool result the agent got has only the id."
      data-testid="looked-up-title"
    >
      {known.title}
    </span>
  ) : (
    <span className={className}>{known.title}</span>
  );
}
