'use client';
// Which turns of the transcript are loaded: the page's first window, then the window around
// the selected turn when the reader moves out of it, or a wider one ("show earlier/later").
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import type { EpisodeEvent } from '@/server/engine/types';
import { MAX_WINDOW_TURNS, WINDOW_TURNS, windowAround, type TurnRange } from '@/server/inspector/turn-window';

export interface TurnRecord {
  turn: number;
  actor: string | null;
  modelRecord: unknown;
}

export function useTurnWindow(
  episodeId: string,
  first: TurnRange & { events: EpisodeEvent[]; records: TurnRecord[] },
  selected: number,
  lastTurn: number,
) {
  const trpc = useTRPC();
  const [range, setRange] = useState<TurnRange>({ from: first.from, to: first.to });
  useEffect(() => {
    setRange((r) => (selected < r.from || selected > r.to ? windowAround(selected, lastTurn) : r));
  }, [selected, lastTurn]);
  const isFirst = range.from === first.from && range.to === first.to;
  const q = useQuery({
    ...trpc.inspector.turns.queryOptions({ id: episodeId, from: range.from, to: range.to }),
    initialData: isFirst ? first : undefined,
    staleTime: Infinity,
    placeholderData: (prev) => prev,
  });
  // (the wire type makes `unknown` fields optional; they are the same events)
  const shown = (q.data ?? first) as typeof first;
  const widen = (from: number, to: number) =>
    setRange(
      to - from < MAX_WINDOW_TURNS
        ? { from, to }
        : from < range.from
          ? { from, to: from + MAX_WINDOW_TURNS - 1 }
          : { from: to - MAX_WINDOW_TURNS + 1, to },
    );
  return {
    events: shown.events,
    records: shown.records,
    from: shown.from,
    to: shown.to,
    loading: q.isFetching,
    earlier: () => widen(Math.max(0, range.from - WINDOW_TURNS), range.to),
    later: () => widen(range.from, Math.min(lastTurn, range.to + WINDOW_TURNS)),
  };
}
