// RETURN's scoring of what the agent did (SPEC §7): r_ret from the returns and exchanges
// initiated (revision 2: a refused call on the target line counts), and the replacement ids an
// answer names. Beside return.ts (its generator and verifier).

import { num } from '../../evidence';
import type { EvidenceItem } from '../../types';
import type { Answer, VerifyContext } from '../types';
import type { ReturnGoal } from '../return';

export const replacementIdsOf = (answer: Answer | null): string[] => [
  ...new Set(((answer?.replacement_product_ids as string[] | undefined) ?? []).filter((x) => typeof x === 'string')),
];

/** The replacement the answer names; without replacement_product_ids, the product an exchange of the target line swapped in. */
export function replacementIds(goal: ReturnGoal, answer: Answer | null, ctx: VerifyContext): string[] {
  const named = replacementIdsOf(answer);
  if (named.length > 0) return named;
  return ctx.world.exchanges
    .filter((x) => x.order_id === goal.orderId && x.line_id === goal.lineId)
    .map((x) => x.new_product_id);
}

/** return.initiate / return.exchange calls on the target line that the tool refused. */
function refusedTargetInitiations(goal: ReturnGoal, ctx: VerifyContext) {
  return ctx.calls.filter((c) => {
    if (c.error === null || (c.name !== 'return.initiate' && c.name !== 'return.exchange')) return false;
    const args = c.args as { order_id?: unknown; line_id?: unknown } | null;
    return args?.order_id === goal.orderId && args?.line_id === goal.lineId;
  });
}

/** r_ret (±1), with its evidence appended to `evidence`. */
export function scoreReturnAction(
  goal: ReturnGoal,
  answer: Answer | null,
  ctx: VerifyContext,
  evidence: EvidenceItem[],
): number {
  const records = [
    ...ctx.world.returns.map((r) => ({ kind: 'return', order_id: r.order_id, line_id: r.line_id, turn: r.turn })),
    ...ctx.world.exchanges.map((r) => ({ kind: 'exchange', order_id: r.order_id, line_id: r.line_id, turn: r.turn })),
  ];
  const isTarget = (r: { order_id: string; line_id: string }) =>
    r.order_id === goal.orderId && r.line_id === goal.lineId;
  // Revision 2: a refused return.initiate / return.exchange naming the target line counts as
  // initiating it (blind initiation of an ineligible item must not be free).
  for (const c of refusedTargetInitiations(goal, ctx))
    records.push({
      kind: `refused ${c.name.split('.')[1]}`,
      order_id: goal.orderId,
      line_id: goal.lineId,
      turn: c.turn,
    });
  const others = records.filter((r) => !isTarget(r));
  const claimsIneligible = answer?.return_ineligible === true;
  for (const r of records)
    evidence.push({
      text: `${r.kind} initiated for ${r.order_id} / ${r.line_id}${isTarget(r) ? ' (the target line)' : ' (not the target line)'}`,
      turns: [r.turn],
      ok: isTarget(r) && goal.eligible,
    });
  let rRet: number;
  if (goal.eligible) {
    rRet = records.some(isTarget) && others.length === 0 && !claimsIneligible ? 1 : -1;
    evidence.push({
      text: `the item is eligible (${goal.eligibilityReason}); ${records.some(isTarget) ? 'a return/exchange was initiated for it' : 'nothing was initiated for it'}${others.length ? `, ${others.length} other line(s) initiated` : ''}${claimsIneligible ? ', but the answer calls it ineligible' : ''} → r_ret = ${num(rRet)}`,
      turns: records.map((r) => r.turn),
      ok: rRet === 1,
      role: 'part',
    });
  } else {
    rRet = records.length === 0 && claimsIneligible ? 1 : -1;
    evidence.push({
      text: `the item is NOT eligible (${goal.eligibilityReason}); ${records.length ? `${records.length} return/exchange(s) initiated` : 'nothing initiated'}; answer ${claimsIneligible ? 'says' : 'does not say'} return_ineligible → r_ret = ${num(rRet)}`,
      turns: [ctx.turn],
      ok: rRet === 1,
      role: 'part',
    });
  }
  return rRet;
}
