import { describe, expect, it } from 'vitest';
import type { EpisodeEvent } from '@/server/engine/types';
import { agentEvents, goalMayLeave, retrievedWorld } from './seat';

const call = (turn: number, name: string, result: unknown, error: string | null = null): EpisodeEvent => ({
  kind: 'tool_call',
  turn,
  index: 0,
  name,
  args: {},
  result,
  error,
});

describe('agent seat projection', () => {
  it('the goal may leave only when finished or revealed', () => {
    expect(goalMayLeave({ status: 'active', revealed: false })).toBe(false);
    expect(goalMayLeave({ status: 'active', revealed: true })).toBe(true);
    expect(goalMayLeave({ status: 'done', revealed: false })).toBe(true);
  });

  it('hides world changes until the end', () => {
    const events: EpisodeEvent[] = [
      { kind: 'customer_message', turn: 0, text: 'hi', act: 'opening' },
      { kind: 'world_change', turn: 1, description: 'p1 went out of stock', data: { stockId: 'p1' } },
    ];
    expect(agentEvents(events, false).map((e) => e.kind)).toEqual(['customer_message']);
    expect(agentEvents(events, true)).toHaveLength(2);
  });

  it('builds the world from successful tool results only, the latest of each', () => {
    const order = (id: string, status: string) => ({ order_id: id, status, lines: [] });
    const world = retrievedWorld([
      call(1, 'order.list', {
        today: '2026-11-30',
        orders: [order('A', 'SHIPPED')],
        addresses: [{ address_id: 'ad1' }],
        payment_methods: [],
      }),
      call(1, 'order.get_status', order('B', 'CONFIRMED'), null),
      call(2, 'order.get_status', order('A', 'DELIVERED')),
      call(2, 'order.get_status', null, 'unknown order_id "C"'),
      call(2, 'cart.add', { lines: [{ line_id: 'l1' }], subtotal: 5 }),
      call(3, 'return.initiate', { return_id: 'RET-1', line_id: 'L1' }),
    ]);
    expect(world.today).toBe('2026-11-30');
    expect(world.orders).toEqual([order('A', 'DELIVERED'), order('B', 'CONFIRMED')]);
    expect(world.addresses).toEqual([{ address_id: 'ad1' }]);
    expect(world.cart).toEqual({ lines: [{ line_id: 'l1' }], subtotal: 5 });
    expect(world.returns).toEqual([{ return_id: 'RET-1', line_id: 'L1' }]);
  });

  it('forgets the cart after a checkout until the agent looks again', () => {
    const events = [
      call(1, 'cart.add', { lines: [{ line_id: 'l1' }] }),
      call(2, 'order.checkout', { order_id: 'ORD-90001', lines: [] }),
    ];
    const world = retrievedWorld(events);
    expect(world.cart).toBeUndefined();
    expect(world.placedOrders).toEqual([{ order_id: 'ORD-90001', lines: [] }]);
    expect(retrievedWorld([...events, call(3, 'cart.view', { lines: [] })]).cart).toEqual({ lines: [] });
  });
});
