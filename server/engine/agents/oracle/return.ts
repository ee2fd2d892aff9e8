import type { ReturnGoal } from '../../envs/return';
import type { Episode } from '../../episode';
import type { Action, ToolCall } from '../../types';
import { lookBackDays } from '../../world/order-phrases';
import { daysBetween } from '../../world/state';
import { bestRecommendation, bestRetrieved, categorySearch, fetchUnseen, searchedAlready } from './pd';

/**
 * Plan the remaining calls — find the order (order.list), retrieve the best
 * replacements (catalog.get_product each; rerank does not retrieve), start the return
 * (or an exchange for the best replacement) — and send as many as the tool budget allows; answer in the turn
 * whose calls complete the plan.
 */
export function returnOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as ReturnGoal;
  const world = episode.world();
  const seen = episode.seenIds;
  const order = world.orders.find((o) => o.order_id === goal.orderId)!;
  const line = order.lines.find((l) => l.line_id === goal.lineId)!;
  const planned: ToolCall[] = [];
  const best = goal.replacement ? bestRecommendation(episode, goal.replacement) : [];
  const unseen = best.filter((id) => !seen.has(id));
  // When p_oos has left more picks than turns (B_tool = 1), one filter-only search of the
  // replacement's category under the customer's constraints shows many at once; get_product
  // retrieves any pick it did not show.
  const searched = searchedAlready(episode);
  const turnsLeft = episode.axes.T_max - episode.turn;
  const oosSpare = episode.axes.p_oos > 0 ? 1 : 0;
  const tight = unseen.length + (goal.eligible ? 1 : 0) + oosSpare > episode.axes.B_tool * turnsLeft;
  if (goal.replacement && unseen.length > 1 && !searched && tight && turnsLeft > 1)
    planned.push(categorySearch(episode, goal.replacement, false, unseen));
  else planned.push(...fetchUnseen(episode, unseen, unseen.length));

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
  // Finding the order is what an agent must do, but the oracle knows it: at d ≤ 1 (B_tool = 1,
  // T_max = 4) an order.list would leave no turn for a third replacement, so it only comes
  // first when the whole plan still fits in the turns left, with a spare call when p_oos may
  // take a retrieved replacement out of stock (decided at first sight, so unknown until then).
  const capacity = budget * turnsLeft;
  const spare = unseen.length > 0 ? oosSpare : 0;
  if (
    !seen.has(goal.productId) &&
    !planned.some((c) => c.name === 'catalog.search') &&
    planned.length + 1 + spare <= capacity
  )
    planned.unshift({ name: 'order.list', args: { days: lookBackDays(daysBetween(order.placed_date, world.today)) } });
  const lastTurn = episode.turn + 1 >= episode.axes.T_max;
  const searching = planned.some((c) => c.name === 'catalog.search'); // answer once its result is known
  if ((planned.length > budget || searching) && !lastTurn)
    return { assistant_message: 'Let me look into that for you.', tool_calls: planned.slice(0, budget), answer: null };
  // Out of turns (p_oos took a pick away at B_tool = 1): start the return first and name only
  // the replacements retrieved by now, rather than unretrieved ones.
  const calls = lastTurn
    ? [
        ...planned.filter((c) => c.name.startsWith('return.')),
        ...planned.filter((c) => !c.name.startsWith('return.')),
      ].slice(0, budget)
    : planned;
  const fetched = new Set(
    calls.filter((c) => c.name === 'catalog.get_product').map((c) => (c.args as { product_id: string }).product_id),
  );
  const retrieved = (id: string) => seen.has(id) || fetched.has(id);
  // Out of turns with picks unfetched (p_oos took several at first sight: RETURN d = 1 seed
  // 895418551 named 2 of 3), the best retrieved items fill the list instead.
  const named = best.every(retrieved) || !goal.replacement ? best : bestRetrieved(episode, goal.replacement, retrieved);
  return {
    assistant_message: goal.eligible
      ? `I've started the return of your ${goal.itemPhrase}.`
      : `I'm sorry, the ${goal.itemPhrase} is not eligible for return: ${goal.eligibilityReason}.`,
    tool_calls: calls,
    answer: {
      env: 'RETURN',
      done: true,
      selected_order_id: goal.orderId,
      selected_line_id: goal.lineId,
      ...(goal.replacement ? { replacement_product_ids: named } : {}),
      ...(goal.eligible ? {} : { return_ineligible: true }),
    },
  };
}
