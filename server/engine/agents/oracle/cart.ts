import { currentCartGoal, type CartGoal, type CartState } from '../../envs/cart';
import type { Episode } from '../../episode';
import type { Action, ToolCall } from '../../types';
import { cartKey } from '../../world/state';

/** Pack calls into this turn's budget; a product is looked up before it is added so it counts as retrieved. */
export function cartOracle(episode: Episode): Action {
  const hidden = episode.hiddenGoal();
  const goal = currentCartGoal(hidden.data as CartGoal, hidden.state as CartState);
  const budget = episode.axes.B_tool;
  const inCart = new Set(episode.world().cart.lines.map((l) => cartKey(l.product_id, l.variant_id)));
  const seen = new Set(episode.seenIds.keys());
  const calls: ToolCall[] = [];
  let added = 0;
  const pending = goal.items.filter((i) => !inCart.has(cartKey(i.productId, i.variantId)));
  // A required variant that went out of stock: tell the customer, who then names an alternative.
  const unavailable = pending.filter((i) => (episode.stockOf(i.productId, i.variantId) ?? 0) < i.qty);
  for (const item of pending) {
    if (unavailable.includes(item)) continue;
    const lookup = !seen.has(item.productId);
    const need = lookup ? 2 : 1;
    if (calls.length + need > budget) {
      if (lookup && calls.length < budget)
        calls.push({ name: 'catalog.get_product', args: { product_id: item.productId } });
      break;
    }
    if (lookup) calls.push({ name: 'catalog.get_product', args: { product_id: item.productId } });
    calls.push({
      name: 'cart.add',
      args: { product_id: item.productId, variant_id: item.variantId, quantity: item.qty },
    });
    added++;
  }
  const finished = unavailable.length === 0 && added === pending.length;
  const notice = unavailable.map((i) => `The ${i.variantValue} ${i.title} is out of stock.`).join(' ');
  return {
    assistant_message: notice || (finished ? 'Your cart is ready.' : 'Adding your items now.'),
    tool_calls: calls,
    answer: finished ? { env: 'CART', done: true } : null,
  };
}
