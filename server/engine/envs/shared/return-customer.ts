// RETURN's customer: how they react to the agent's return calls and replacement suggestions.
// Beside return.ts (its generator and verifier). The customer knows their order, not the return rules.

import { allOrders, findOrder } from '../../world/orders';
import type { CustomerReply, EnvContext, TurnInfo } from '../types';
import type { ReturnGoal, ReturnTask } from '../return';
import { confirmOnce, firstGoodProduct, firstObjection, mentionedProducts } from './recommend-customer';

// What an agent says when it calls the item ineligible (the customer pushes back the same way either way).
const INELIGIBLE_WORDS =
  /not eligible|ineligible|can(?:no|')t be returned|cannot be returned|not returnable|non-returnable|past the (?:return )?window|window (?:has )?(?:closed|ended|passed|expired)/i;

function initiations(info: TurnInfo): Array<{ order_id: string; line_id: string }> {
  return info.toolResults
    .filter((r) => r.error === null && (r.name === 'return.initiate' || r.name === 'return.exchange'))
    .map((r) => r.result as { order_id: string; line_id: string });
}

const onTarget = (goal: ReturnGoal) => (r: { order_id: string; line_id: string }) =>
  r.order_id === goal.orderId && r.line_id === goal.lineId;

/** Products the agent names as possible replacements (same kind, not something the customer already ordered). */
function namedReplacements(task: ReturnTask, info: TurnInfo, ctx: EnvContext) {
  const spec = task.goal.replacement;
  if (!spec) return [];
  const ordered = new Set<string>();
  for (const o of allOrders(ctx.world)) for (const l of o.lines) ordered.add(l.product_id); // not flatMap: issue 13
  return mentionedProducts(task.state, info, ctx).filter((p) => p.category === spec.category && !ordered.has(p.id));
}

export function confirmReturn(task: ReturnTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const { goal } = task;
  const inits = initiations(info);
  if (inits.length > 0 && inits.every(onTarget(goal)) && !goal.replacement)
    return confirmOnce(task.state, { text: "Perfect, that's the one. Thanks!", act: 'confirm' });
  if (goal.replacement) {
    const named = namedReplacements(task, info, ctx);
    const good = firstGoodProduct(named, goal.replacement.constraints, ctx);
    if (good && !firstObjection(task, named, goal.replacement.constraints, ctx))
      return confirmOnce(task.state, { text: `Yes, the ${good.title} would work as a replacement.`, act: 'confirm' });
  }
  return null;
}

export function respondToReturn(task: ReturnTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const { goal } = task;
  const inits = initiations(info);
  const wrong = inits.find((r) => !onTarget(goal)(r));
  if (wrong) {
    const title =
      findOrder(ctx.world, wrong.order_id)?.lines.find((l) => l.line_id === wrong.line_id)?.title ?? wrong.line_id;
    return {
      text: `Wait, that's the wrong item! I wanted to return the ${goal.itemPhrase}, not the ${title}.`,
      act: 'correct',
    };
  }
  // The customer does not know the return rules: the same reply whether or not the item is
  // really eligible, so the reply cannot tell the agent which it is.
  if (INELIGIBLE_WORDS.test(info.agentMessage))
    return {
      text: `Oh no. It was delivered on ${goal.deliveredDate}. Are you sure it can't be returned?`,
      act: 'continue',
    };
  if (goal.replacement) {
    const objection = firstObjection(task, namedReplacements(task, info, ctx), goal.replacement.constraints, ctx);
    if (objection) return objection;
    if (inits.some(onTarget(goal)))
      return { text: `Thanks! Can you also suggest a replacement ${goal.replacementNoun}?`, act: 'continue' };
  }
  return null;
}
