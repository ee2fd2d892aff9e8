'use client';
// The episode's event log, grouped by turn. Each turn is an anchor (#turn-N).
import { useEffect, useRef, type ReactNode } from 'react';
import type { EpisodeEvent } from '@/server/engine/types';
import { Badge, cx } from '@/components/ui/primitives';
import { EventList } from './EventView';
import { ProductTitlesProvider } from './product-titles';

export function groupByTurn(events: EpisodeEvent[]): Array<{ turn: number; events: EpisodeEvent[] }> {
  const groups: Array<{ turn: number; events: EpisodeEvent[] }> = [];
  for (const e of events) {
    const last = groups[groups.length - 1];
    if (last && last.turn === e.turn) last.events.push(e);
    else groups.push({ turn: e.turn, events: [e] });
  }
  return groups;
}

export function Transcript({
  events,
  episodeId,
  highlightTurn,
  scrollToEnd = false,
  tMax,
  catalogId,
  actors,
  turnExtra,
}: {
  events: EpisodeEvent[];
  episodeId?: string;
  highlightTurn?: number | null;
  /** playground: keep the newest turn in view */
  scrollToEnd?: boolean;
  tMax?: number;
  /** to look up titles of products shown by id only */
  catalogId?: string;
  /** who took each turn (turn → 'human' | 'model:<name>' | a built-in agent) */
  actors?: Record<number, string | null>;
  /** extra content under a turn (the replay's model panels) */
  turnExtra?: (turn: number) => ReactNode;
}) {
  const endRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (highlightTurn !== null && highlightTurn !== undefined) {
      document.getElementById(`turn-${highlightTurn}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [highlightTurn]);
  useEffect(() => {
    if (scrollToEnd) endRef.current?.scrollIntoView({ behavior: 'smooth', block: 'end' });
  }, [scrollToEnd, events.length]);

  return (
    <ProductTitlesProvider events={events} catalogId={catalogId}>
      <div className="space-y-4" data-testid="transcript">
        {groupByTurn(events).map((g) => (
          <section
            key={g.turn}
            id={`turn-${g.turn}`}
            className={cx(
              'scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4',
              highlightTurn === g.turn && 'turn-highlight',
            )}
            data-turn={g.turn}
          >
            <header className="mb-3 flex items-center gap-2 text-xs font-medium uppercase tracking-wide text-slate-400">
              <a href={`#turn-${g.turn}`} className="hover:text-slate-700">
                {g.turn === 0 ? 'Opening' : `Turn ${g.turn}${tMax ? ` of ${tMax}` : ''}`}
              </a>
              {g.turn > 0 && actors?.[g.turn] && (
                <span data-testid="turn-actor" data-actor={actors[g.turn]!}>
                  <Badge tone={actors[g.turn] === 'human' ? 'slate' : 'violet'} className="normal-case">
                    {actorLabel(actors[g.turn]!)}
                  </Badge>
                </span>
              )}
            </header>
            <div className="space-y-3">
              <EventList events={g.events} episodeId={episodeId} />
            </div>
            {turnExtra?.(g.turn)}
          </section>
        ))}
        <div ref={endRef} />
      </div>
    </ProductTitlesProvider>
  );
}

/** 'model:qwen' → 'model qwen'; 'human' → 'person'; built-in agents by name. */
export function actorLabel(actor: string): string {
  if (actor === 'human') return 'person';
  if (actor.startsWith('model:')) return `model ${actor.slice('model:'.length)}`;
  return actor;
}
