'use client';
// The replay's turns: the shared event renderers, plus per turn its mark, its mistakes and a
// "what the agent saw" toggle. Clicking a turn selects it (the world panel follows).
import { useState } from 'react';
import type { EpisodeEvent } from '@/server/engine/types';
import type { Mistake, TurnMark } from '@/server/inspector/turns';
import { EventList } from '@/components/transcript/EventView';
import { actorLabel, groupByTurn } from '@/components/transcript/Transcript';
import type { ModelTurnRecord } from '@/server/models/table';
import { ModelTurnPanel } from './ModelTurnPanel';
import { ProductTitlesProvider } from '@/components/transcript/product-titles';
import { Badge, cx } from '@/components/ui/primitives';
import { StaleContext } from './stale';
import { AgentView } from './AgentView';

const MARK_CLASS: Record<TurnMark, string> = {
  fail: 'border-l-4 border-l-rose-500',
  uncounted: 'border-l-4 border-l-emerald-500',
  ok: 'border-l-4 border-l-sky-500',
  none: '',
};

/** One badge per mistake kind, with its count (the lines themselves are listed below the header). */
function badgesOf(mistakes: Mistake[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const m of mistakes) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  return [...counts];
}

export function ReplayTranscript({
  episodeId,
  events,
  catalogId,
  tMax,
  selected,
  onSelect,
  marks,
  mistakes,
  outOfStock,
  turnRecords = [],
}: {
  episodeId: string;
  events: EpisodeEvent[];
  catalogId: string;
  tMax: number;
  selected: number;
  onSelect: (turn: number) => void;
  marks: TurnMark[];
  mistakes: Mistake[];
  outOfStock: Record<string, number>;
  /** issue 9: who took each turn, and a model's request/reply */
  turnRecords?: Array<{ turn: number; actor: string | null; modelRecord: unknown }>;
}) {
  const records = new Map(turnRecords.map((r) => [r.turn, r]));
  const [saw, setSaw] = useState<Set<number>>(new Set());
  const lastTurn = events.reduce((m, e) => Math.max(m, e.turn), 0);
  return (
    <ProductTitlesProvider events={events} catalogId={catalogId}>
      <div className="space-y-3" data-testid="transcript">
        {groupByTurn(events).map((g) => {
          const here = mistakes.filter((m) => m.turn === g.turn);
          const mark = marks[g.turn] ?? 'none';
          return (
            <section
              key={g.turn}
              id={`turn-${g.turn}`}
              className={cx(
                'scroll-mt-24 rounded-lg border border-slate-200 bg-white p-4',
                MARK_CLASS[mark],
                selected === g.turn && 'turn-highlight',
              )}
              data-turn={g.turn}
              data-testid="replay-turn"
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a,button,input,select,summary')) onSelect(g.turn);
              }}
            >
              <header className="mb-3 flex flex-wrap items-center gap-2 text-xs font-medium uppercase tracking-wide text-slate-400">
                <a
                  href={`?turn=${g.turn}#turn-${g.turn}`}
                  className="hover:text-slate-700"
                  onClick={(e) => (e.preventDefault(), onSelect(g.turn))}
                >
                  {g.turn === 0 ? 'Opening' : `Turn ${g.turn} of ${tMax}`}
                </a>
                {g.turn > 0 && records.get(g.turn)?.actor && (
                  <span data-testid="turn-actor" data-actor={records.get(g.turn)!.actor!}>
                    <Badge tone={records.get(g.turn)!.actor === 'human' ? 'slate' : 'violet'} className="normal-case">
                      {actorLabel(records.get(g.turn)!.actor!)}
                    </Badge>
                  </span>
                )}
                {mark === 'uncounted' && <Badge tone="green">not counted for efficiency</Badge>}
                {badgesOf(here).map(([kind, n]) => (
                  <span key={kind} data-testid="mistake-badge">
                    <Badge tone="red">
                      {kind}
                      {n > 1 && ` ×${n}`}
                    </Badge>
                  </span>
                ))}
                {g.turn > 0 && g.turn <= lastTurn && (
                  <button
                    type="button"
                    className="ml-auto normal-case tracking-normal text-sky-700 underline"
                    onClick={() =>
                      setSaw((s) =>
                        s.has(g.turn) ? new Set([...s].filter((x) => x !== g.turn)) : new Set([...s, g.turn]),
                      )
                    }
                    aria-expanded={saw.has(g.turn)}
                  >
                    {saw.has(g.turn) ? 'hide what the agent saw' : 'what the agent saw'}
                  </button>
                )}
              </header>
              {here.length > 0 && (
                <ul className="mb-3 space-y-0.5 rounded-md bg-rose-50 px-3 py-2 text-xs text-rose-900">
                  {here.map((m, i) => (
                    <li key={i}>
                      <span className="font-semibold">{m.kind}:</span> {m.text}
                    </li>
                  ))}
                </ul>
              )}
              {saw.has(g.turn) && (
                <div className="mb-3">
                  <AgentView episodeId={episodeId} turn={g.turn} />
                </div>
              )}
              <StaleContext.Provider value={{ outOfStock, turn: g.turn }}>
                <div className="space-y-3">
                  <EventList events={g.events} episodeId={episodeId} />
                  {records.get(g.turn)?.modelRecord ? (
                    <ModelTurnPanel record={records.get(g.turn)!.modelRecord as ModelTurnRecord} />
                  ) : null}
                </div>
              </StaleContext.Provider>
            </section>
          );
        })}
      </div>
    </ProductTitlesProvider>
  );
}
