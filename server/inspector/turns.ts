// Per-turn views of one episode, derived from its event log: the stock changes up to a turn, the
// mistakes marked on the turns where they happened, and a pass/fail mark per turn for the
// minimap. (What the agent saw before a turn: models/transcript.ts observationOf.)
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';

export interface StockChange {
  turn: number;
  id: string;
  before: number | null;
  after: number;
  description: string;
}

export function stockChangesUpTo(events: EpisodeEvent[], turn: number): StockChange[] {
  return events.flatMap((e) =>
    e.kind === 'world_change' && e.turn <= turn && typeof e.data.stockId === 'string'
      ? [
          {
            turn: e.turn,
            id: e.data.stockId,
            before: (e.data.stockBefore as number | null) ?? null,
            after: Number(e.data.stockAfter ?? 0),
            description: e.description,
          },
        ]
      : [],
  );
}

/** Ids that went out of stock, with the turn it happened (for "stale" product cards). */
export function outOfStockTurns(events: EpisodeEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of stockChangesUpTo(events, Number.MAX_SAFE_INTEGER))
    if (c.after === 0 && out[c.id] === undefined) out[c.id] = c.turn;
  return out;
}

export type MistakeKind =
  'wrong variant' | 'hallucinated id' | 'refused tool' | 'ignored correction' | 'unusable action' | 'task evidence';

export interface Mistake {
  turn: number;
  kind: MistakeKind;
  text: string;
}

/** Mistakes from the evidence and the log, each on the turn where it happened. */
export function mistakesOf(events: EpisodeEvent[], breakdown: RewardBreakdown | null): Mistake[] {
  const out: Mistake[] = [];
  for (const e of events) {
    if (e.kind === 'tool_call' && e.error !== null)
      out.push({ turn: e.turn, kind: 'refused tool', text: `${e.name || 'tool call'} was refused: ${e.error}` });
    if (e.kind === 'action_error') out.push({ turn: e.turn, kind: 'unusable action', text: e.error });
  }
  // A correction is ignored when the next turn did no successful work and did not answer.
  for (const e of events) {
    if (e.kind !== 'customer_message' || e.act !== 'correct') continue;
    const next = events.filter((x) => x.turn === e.turn + 1);
    if (next.length === 0) continue;
    const worked = next.some((x) => (x.kind === 'tool_call' && x.error === null) || x.kind === 'answer');
    if (!worked)
      out.push({
        turn: e.turn + 1,
        kind: 'ignored correction',
        text: `the customer corrected at turn ${e.turn} ("${e.text.slice(0, 80)}"); turn ${e.turn + 1} did nothing about it`,
      });
  }
  if (breakdown) {
    const answerTurn = [...events].reverse().find((e) => e.kind === 'answer')?.turn ?? breakdown.turns;
    for (const id of breakdown.hallucinatedIds)
      out.push({ turn: answerTurn, kind: 'hallucinated id', text: `${id} was recommended but never retrieved` });
    for (const ev of breakdown.evidence.task) {
      if (ev.ok) continue;
      const kind: MistakeKind = /variant/i.test(ev.text) ? 'wrong variant' : 'task evidence';
      for (const t of ev.turns.length ? ev.turns : [answerTurn]) out.push({ turn: t, kind, text: ev.text });
    }
  }
  return out.sort((a, b) => a.turn - b.turn);
}

export type TurnMark = 'fail' | 'ok' | 'uncounted' | 'none';

/**
 * One mark per turn (index = turn): fail when a mistake is on it; uncounted when the
 * efficiency evidence says the customer caused it; ok when task evidence credits it.
 */
export function turnMarks(events: EpisodeEvent[], breakdown: RewardBreakdown | null, mistakes: Mistake[]): TurnMark[] {
  const last = events.reduce((m, e) => Math.max(m, e.turn), 0);
  const marks: TurnMark[] = Array.from({ length: last + 1 }, () => 'none');
  for (const ev of breakdown?.evidence.eff ?? [])
    if (ev.ok) for (const t of ev.turns) if (t <= last) marks[t] = 'uncounted';
  for (const ev of breakdown?.evidence.task ?? [])
    if (ev.ok) for (const t of ev.turns) if (t <= last && marks[t] === 'none') marks[t] = 'ok';
  for (const m of mistakes) if (m.turn <= last) marks[m.turn] = 'fail';
  return marks;
}
