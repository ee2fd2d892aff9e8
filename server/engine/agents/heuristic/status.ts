// STATUS heuristic: an order id in the message is looked up directly; an item
// described in words is found in order.list. The answer is the status the tools show.

import type { ToolCall } from '../../types';
import { itemPhraseOf, matchLines, ordersIn, whenOf, type OrderView } from './orders';
import type { Strategy, TurnInput, TurnOutput } from './types';

const ORDER_ID = /\bORD-\d+\b/;
const LOOK_BACK_DAYS = 120;

export function createStatusStrategy(): Strategy {
  let orderId: string | null = null;
  let phrase: string | null = null;
  let when: [number, number] | null = null;
  let turn = 0;
  let listed: { today: string; orders: OrderView[] } | null = null;

  return {
    envId: 'STATUS',
    step(input: TurnInput): TurnOutput {
      turn++;
      if (turn === 1) {
        orderId = ORDER_ID.exec(input.message)?.[0] ?? null;
        phrase = orderId ? null : itemPhraseOf(input.message);
        when = whenOf(input.message);
      } else when ??= whenOf(input.message);
      const status = input.results.find((r) => r.error === null && r.name === 'order.get_status')?.result as
        OrderView | undefined;
      listed = ordersIn(input.results) ?? listed;
      if (status && status.order_id === orderId) {
        return {
          message: `Your order ${orderId} is ${status.status.toLowerCase().replace('_', ' ')}.`,
          calls: [],
          answer: { selected_order_id: orderId, order_status: status.status },
        };
      }
      if (!orderId && listed) {
        const best = matchLines(listed.orders, phrase ?? input.message, listed.today, when)[0];
        if (best)
          return {
            message: `Your order ${best.order.order_id} is ${best.order.status.toLowerCase().replace('_', ' ')}.`,
            calls: [],
            answer: { selected_order_id: best.order.order_id, order_status: best.order.status },
          };
      }
      const calls: ToolCall[] = orderId
        ? [{ name: 'order.get_status', args: { order_id: orderId } }]
        : [{ name: 'order.list', args: { days: LOOK_BACK_DAYS } }];
      if (input.turnsLeft <= 1)
        return {
          message: 'Sorry, I could not find that order.',
          calls: [],
          answer: { selected_order_id: orderId ?? 'unknown', order_status: 'CONFIRMED' },
        };
      const ask = !orderId && !when && turn === 1 ? ' When did you order it?' : '';
      return { message: `Let me look that up.${ask}`, calls };
    },
  };
}
