import type { StatusGoal } from '../../envs/status';
import type { Episode } from '../../episode';
import type { Action, ToolCall } from '../../types';
import { lookBackDays } from '../../world/order-phrases';
import { daysBetween } from '../../world/state';

/** An indirect reference is resolved with order.list first; then order.get_status and the answer. */
export function statusOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as StatusGoal;
  const world = episode.world();
  const order = [...world.orders, ...world.placedOrders].find((o) => o.order_id === goal.orderId)!;
  const planned: ToolCall[] = [];
  if (goal.indirect && !episode.seenIds.has(goal.productId))
    planned.push({ name: 'order.list', args: { days: lookBackDays(daysBetween(order.placed_date, world.today)) } });
  planned.push({ name: 'order.get_status', args: { order_id: goal.orderId } });
  const budget = episode.axes.B_tool;
  if (planned.length > budget)
    return { assistant_message: 'Let me find that order.', tool_calls: planned.slice(0, budget), answer: null };
  return {
    assistant_message: `Your order ${order.order_id} is ${order.status.toLowerCase().replace('_', ' ')}.`,
    tool_calls: planned,
    answer: { env: 'STATUS', done: true, selected_order_id: order.order_id, order_status: order.status },
  };
}
