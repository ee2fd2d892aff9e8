import { describe, expect, it } from 'vitest';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { alignTurns } from './compare';
import { retrievedWorld } from '@/server/episodes/seat';
import { observationOf } from '@/server/models/transcript';
import { mistakesOf, outOfStockTurns, turnMarks } from './turns';
import { eventsIn, WHOLE_UP_TO, windowAround } from './turn-window';

const budgets = { T_max: 5, B_tool: 2 };
const events: EpisodeEvent[] = [
  { kind: 'customer_message', turn: 0, text: 'two red mugs please', act: 'opening' },
  { kind: 'agent_message', turn: 1, text: 'searching' },
  {
    kind: 'tool_call',
    turn: 1,
    index: 0,
    name: 'catalog.search',
    args: { query: 'red mug' },
    result: [{ id: 'p1' }],
    error: null,
  },
  {
    kind: 'world_change',
    turn: 1,
    description: 'p1 went out of stock',
    data: { stockId: 'p1', stockBefore: null, stockAfter: 0 },
  },
  { kind: 'customer_message', turn: 1, text: 'no, blue ones', act: 'correct' },
  { kind: 'agent_message', turn: 2, text: 'ok' },
  {
    kind: 'tool_call',
    turn: 2,
    index: 0,
    name: 'cart.add',
    args: { product_id: 'p9' },
    result: null,
    error: 'unknown product "p9"',
  },
  { kind: 'customer_message', turn: 2, text: 'hello?', act: 'continue' },
  { kind: 'agent_message', turn: 3, text: 'adding' },
  {
    kind: 'tool_call',
    turn: 3,
    index: 0,
    name: 'cart.add',
    args: { product_id: 'p2', variant_id: 'v_red', quantity: 2 },
    result: {
      lines: [{ line_id: 'l1', product_id: 'p2', variant_id: 'v_red', qty: 2 }],
      total_items: 2,
      total_price: 10,
    },
    error: null,
  },
  { kind: 'answer', turn: 3, answer: { env: 'CART', done: true } },
  { kind: 'termination', turn: 3, reason: 'answered' },
];
const breakdown = {
  hallucinatedIds: ['p7'],
  turns: 3,
  evidence: {
    task: [
      {
        text: 'cart key p2::v_blue expected qty 2, found 0 (p2::v_red added instead: wrong variant)',
        turns: [3],
        ok: false,
      },
      { text: 'quantity right', turns: [3], ok: true },
    ],
    eff: [
      { text: 'turn 1 counted', turns: [1], ok: false },
      { text: 'turn 2: customer replied "clarify" → not counted', turns: [2], ok: true },
    ],
    hall: [],
  },
} as unknown as RewardBreakdown;

describe('per-turn views from the log', () => {
  it('rebuilds the observation the agent had before each turn', () => {
    const turnEvents = (t: number) => events.filter((e) => e.turn === t);
    expect(observationOf('CART', turnEvents(0), 0, budgets)).toEqual({
      envId: 'CART',
      turn: 0,
      customerMessage: 'two red mugs please',
      toolResults: [],
      budgets,
      done: false,
    });
    const o2 = observationOf('CART', turnEvents(1), 1, budgets);
    expect(o2.customerMessage).toBe('no, blue ones');
    expect(o2.toolResults).toEqual([
      { name: 'catalog.search', args: { query: 'red mug' }, result: [{ id: 'p1' }], error: null },
    ]);
  });

  it('marks each mistake on its turn', () => {
    const m = mistakesOf(events, breakdown);
    expect(m.map((x) => [x.turn, x.kind])).toEqual([
      [2, 'refused tool'],
      [2, 'ignored correction'],
      [3, 'hallucinated id'],
      [3, 'wrong variant'],
    ]);
    expect(turnMarks(events, breakdown, m)).toEqual(['none', 'none', 'fail', 'fail']);
    expect(turnMarks(events, breakdown, [])).toEqual(['none', 'none', 'uncounted', 'ok']);
  });

  it('knows when a product went out of stock, and the cart at a turn from the log', () => {
    expect(outOfStockTurns(events)).toEqual({ p1: 1 });
    // the world the replay shows when the engine cannot replay an episode (episode-data.ts)
    expect(retrievedWorld(events.filter((e) => e.turn <= 2)).cart).toBeUndefined();
    expect((retrievedWorld(events).cart as { total_items: number }).total_items).toBe(2);
  });
});

describe('turn-aligned compare', () => {
  it('finds the first turn where the agents differ', () => {
    const other = events.map((e) =>
      e.kind === 'tool_call' && e.turn === 2 ? { ...e, args: { product_id: 'p3' } } : e,
    );
    const { turns, firstDivergence } = alignTurns(events, other);
    expect(firstDivergence).toBe(2);
    expect(turns.map((t) => t.same)).toEqual([true, true, false, true]);
    expect(alignTurns(events, events).firstDivergence).toBeNull();
    const shorter = events.filter((e) => e.turn < 3);
    expect(alignTurns(events, shorter).firstDivergence).toBe(3);
  });
});

describe('turn windows', () => {
  it('sends short episodes whole and centres a window on the selected turn of long ones', () => {
    expect(windowAround(7, 12)).toEqual({ from: 0, to: 12 });
    expect(windowAround(0, WHOLE_UP_TO - 1)).toEqual({ from: 0, to: WHOLE_UP_TO - 1 });
    expect(windowAround(250, 500)).toEqual({ from: 240, to: 259 });
    expect(windowAround(3, 500)).toEqual({ from: 0, to: 19 });
    expect(windowAround(500, 500)).toEqual({ from: 481, to: 500 });
    expect(windowAround(9999, 500)).toEqual({ from: 481, to: 500 });
  });

  it('keeps the events of the turns in the range, in order', () => {
    const ev = (turn: number, text: string) => ({ kind: 'agent_message', turn, text }) as unknown as EpisodeEvent;
    const events = [ev(0, 'a'), ev(1, 'b'), ev(1, 'c'), ev(2, 'd'), ev(3, 'e')];
    expect(eventsIn(events, { from: 1, to: 2 }).map((e) => (e as unknown as { text: string }).text)).toEqual([
      'b',
      'c',
      'd',
    ]);
  });
});
