'use client';
// The world panel at the selected turn: replayed by the engine up to that turn (or rebuilt
// from the log for episodes it cannot replay), plus the stock changes so far.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import type { EpisodeEvent } from '@/server/engine/types';
import type { WorldView } from '@/server/episodes/types';
import { WorldPanel } from '@/components/play/WorldPanel';
import { ProductTitlesProvider } from '@/components/transcript/product-titles';

export function WorldAtTurn({
  episodeId,
  turn,
  events,
  catalogId,
}: {
  episodeId: string;
  turn: number;
  events: EpisodeEvent[];
  catalogId: string;
}) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.inspector.worldAt.queryOptions({ id: episodeId, turn }),
    staleTime: Infinity,
    placeholderData: (prev) => prev,
  });
  const w = q.data;
  return (
    <div data-testid="world-at-turn" data-turn={w ? turn : undefined} className="space-y-2">
      <ProductTitlesProvider events={events} catalogId={catalogId} extra={w?.world}>
        <WorldPanel
          world={(w?.world ?? undefined) as WorldView | undefined}
          loading={q.isLoading}
          at={`after ${turn === 0 ? 'the opening' : `turn ${turn}`}`}
        />
      </ProductTitlesProvider>
      <p className="text-xs text-slate-500">{q.isFetching ? 'loading…' : w?.note}</p>
      {w && w.stockChanges.length > 0 && (
        <div
          className="rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900"
          data-testid="stock-changes"
        >
          <p className="mb-1 font-semibold uppercase tracking-wide">Stock changes so far</p>
          <ul>
            {w.stockChanges.map((c, i) => (
              <li key={i}>
                turn {c.turn}: {c.id} {c.before === null ? 'in stock' : `stock ${c.before}`} → {c.after}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
