import type { ReturnGoal } from '../../envs/return';
import type { Episode } from '../../episode';
import type { Action, ToolCall } from '../../types';
import { lookBackDays } from '../../world/order-phrases';
import { daysBetween } from '../../world/state';
import { bestRecommendation } from './pd';

/**
 * Plan the remaining calls — find the order (order.list), retrieve the best
 * replacements (catalog.rerank), start the return (or an exchange for the best
 * replacement) — and send as many as the tool budget allows; answer in the turn
 * whose calls complete the plan.
 */
export function returnOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as ReturnGoal;
  const world = episode.world();
  const seen = episode.seenIds;
  const order = world.orders.find((o) => o.order_id === goal.orderId)!;
  const line = order.lines.find((l) => l.line_id === goal.lineId)!;
  const planned: ToolCall[] = [];
  if (!seen.has(goal.productId))
    planned.push({ name: 'order.list', args: { days: lookBackDays(daysBetween(order.placed_date, world.today)) } });

  const best = goal.replacement ? bestRecommendation(episode, goal.replacement) : [];
  const unseen = best.filter((id) => !seen.has(id));
  if (unseen.length > 0)
    planned.push({
      name: 'catalog.rerank',
      args: { query: goal.replacementNoun ?? goal.itemPhrase, candidate_product_ids: unseen },
    });

  const started = [...world.returns, ...world.exchanges].some(
    (r) => r.order_id === goal.orderId && r.line_id === goal.lineId,
  );
  if (goal.eligible && !started) {
    const swap = best.find((id) => (episode.stockOf(id, null) ?? 0) >= line.qty);
    planned.push(
      swap
        ? { name: 'return.exchange', args: { order_id: goal.orderId, line_id: goal.lineId, new_product_id: swap } }
        : {
            name: 'return.initiate',
            args: { order_id: goal.orderId, line_id: goal.lineId, reason_code: goal.reasonCode, method: 'in_store' },
          },
    );
  }

  const budget = episode.axes.B_tool;
  if (planned.length > budget)
    return { assistant_message: 'Let me look into that for you.', tool_calls: planned.slice(0, budget), answer: null };
  return {
    assistant_message: goal.eligible
      ? `I've started the return of your ${goal.itemPhrase}.`
      : `I'm sorry, the ${goal.itemPhrase} is not eligible for return: ${goal.eligibilityReason}.`,
    tool_calls: planned,
    answer: {
      env: 'RETURN',
      done: true,
      selected_order_id: goal.orderId,
      selected_line_id: goal.lineId,
      ...(goal.replacement ? { replacement_product_ids: best } : {}),
      ...(goal.eligible ? {} : { return_ineligible: true }),
    },
  };
}
