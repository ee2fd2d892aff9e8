// The one place that decides what a seat may receive.
//
// The agent seat (a person in the playground, a connected model, a trainer over the API) gets
// the conversation and its OWN tool results: the event log without the world's hidden changes,
// and a world panel derived from what its tools returned. The hidden goal, the seed (which
// regenerates the goal), the full world and the evidence stay with the inspector until the
// episode is finished, or until the player reveals the goal on purpose (recorded).
import type { EpisodeEvent, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import type { CustomerRewrite, EpisodeStatus, EpisodeView, HiddenGoal, WorldView } from './types';

export interface SeatView {
  seat: 'agent';
  id: string;
  createdAt: string;
  envId: EpisodeView['envId'];
  d: number;
  catalogId: string;
  player: string;
  status: EpisodeStatus;
  turn: number;
  budgets: { T_max: number; B_tool: number };
  events: EpisodeEvent[];
  /** What the agent's own tool results showed (latest of each), never the stored world. */
  world: WorldView;
  revealed: boolean;
  /** The rest is null while the goal is hidden. */
  seed: number | null;
  hiddenGoal: HiddenGoal | null;
  terminationReason: TerminationReason | null;
  reward: number | null;
  isCorrect: boolean | null;
  breakdown: RewardBreakdown | null;
}

/** The goal may leave the server for a finished episode, or one its player revealed. */
export function goalMayLeave(ep: { status: EpisodeStatus; revealed: boolean }): boolean {
  return ep.status === 'done' || ep.revealed;
}

/** Events the agent saw: world_change events (goal changes, silent stock changes) stay hidden until the end. */
export function agentEvents(events: readonly EpisodeEvent[], done: boolean): EpisodeEvent[] {
  return done ? [...events] : events.filter((e) => e.kind !== 'world_change');
}

/** The LLM customer's recorded wording, shown with the template it stands for (the inspector's replay). */
export type VoicedCustomerMessage = Extract<EpisodeEvent, { kind: 'customer_message' }> & {
  voice?: Omit<CustomerRewrite, 'turn' | 'text'>;
};

/**
 * Customer messages as the agent read them: where the LLM customer spoke (issue 9 item 8), its
 * recorded text replaces the template. With `withTemplate` (inspectors only) each such message
 * also carries the template, who rewrote it, and why a template was kept.
 */
export function voicedEvents(
  events: EpisodeEvent[],
  rewrites: readonly CustomerRewrite[] = [],
  withTemplate = false,
): EpisodeEvent[] {
  if (rewrites.length === 0) return events;
  const byTurn = new Map(rewrites.map((r) => [r.turn, r]));
  return events.map((e) => {
    const r = e.kind === 'customer_message' ? byTurn.get(e.turn) : undefined;
    if (!r) return e;
    const voice = { template: r.template, by: r.by, fallback: r.fallback };
    return { ...e, text: r.text, ...(withTemplate ? { voice } : {}) } as VoicedCustomerMessage;
  });
}

export function toSeatView(view: EpisodeView): SeatView {
  const open = goalMayLeave(view);
  const done = view.status === 'done';
  return {
    seat: 'agent',
    id: view.id,
    createdAt: view.createdAt,
    envId: view.envId,
    d: view.d,
    catalogId: view.catalogId,
    player: view.player,
    status: view.status,
    turn: view.turn,
    budgets: view.budgets,
    events: voicedEvents(agentEvents(view.events, done), view.customerRewrites),
    world: retrievedWorld(view.events),
    revealed: view.revealed,
    seed: open ? view.seed : null,
    hiddenGoal: open ? view.hiddenGoal : null,
    terminationReason: done ? view.terminationReason : null,
    reward: done ? view.reward : null,
    isCorrect: done ? view.isCorrect : null,
    breakdown: done ? view.breakdown : null,
  };
}

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

function upsert(list: Rec[], item: Rec, key: string): void {
  const i = list.findIndex((x) => x[key] === item[key]);
  if (i >= 0) list[i] = item;
  else list.push(item);
}

const CART_TOOLS = new Set(['cart.view', 'cart.add', 'cart.remove', 'cart.set_quantity']);

/**
 * The world as the agent's successful tool calls showed it: the last cart a cart tool returned
 * (gone after a checkout until viewed again), orders from order.list / order.get_status, orders
 * it placed, returns and exchanges it started, today's date, addresses and payment methods.
 */
export function retrievedWorld(events: readonly EpisodeEvent[]): WorldView {
  const world: WorldView & { orders: Rec[]; placedOrders: Rec[]; returns: Rec[]; exchanges: Rec[] } = {
    orders: [],
    placedOrders: [],
    returns: [],
    exchanges: [],
  };
  for (const e of events) {
    if (e.kind !== 'tool_call' || e.error !== null || !isRec(e.result)) continue;
    const r = e.result;
    if (CART_TOOLS.has(e.name)) {
      world.cart = r;
      world.cartTurn = e.turn;
    } else if (e.name === 'order.list') {
      if (typeof r.today === 'string') world.today = r.today;
      for (const o of Array.isArray(r.orders) ? r.orders : []) if (isRec(o)) upsert(world.orders, o, 'order_id');
      world.addresses = r.addresses;
      world.paymentMethods = r.payment_methods;
    } else if (e.name === 'order.get_status') {
      upsert(
        world.placedOrders.some((o) => o.order_id === r.order_id) ? world.placedOrders : world.orders,
        r,
        'order_id',
      );
    } else if (e.name === 'order.checkout') {
      upsert(world.placedOrders, r, 'order_id');
      delete world.cart; // emptied by the checkout; the agent has not looked since
      delete world.cartTurn;
    } else if (e.name === 'return.initiate') upsert(world.returns, r, 'return_id');
    else if (e.name === 'return.exchange') upsert(world.exchanges, r, 'exchange_id');
    else if (e.name === 'datetime.now' && typeof r.today === 'string') world.today = r.today;
  }
  return world;
}
