'use client';
// Buttons on result cards that fill the playground's answer form (see answer-prefill.tsx).
import { usePlayStore } from '@/lib/stores/play';
import { Button } from '@/components/ui/primitives';
import { appendToList, joinList, listItems } from '@/components/play/form-values';
import { useAnswerTargets, type OrderSlot } from '../answer-prefill';
import { policyAnswerOf } from './policy-answer';

const listName = (key: string) => key.replace(/_?product_ids?$/, '').replace(/_/g, ' ') || 'answer';

/**
 * "+ Answer" on a product: adds its id to the answer's product list (click again to take it out).
 * In a JOURNEY it can also start a new sub-answer of a fitting env ("+ PD (new)").
 */
export function AddToAnswer({ productId }: { productId: string }) {
  const targets = useAnswerTargets();
  const update = usePlayStore((s) => s.updateAnswerValues);
  const set = (t: { path: string; init?: Record<string, string> }, value: string) =>
    update((v) => ({ ...v, ...t.init, [t.path]: value }));
  if (!targets || targets.productLists.length === 0) return null;
  const many = targets.productLists.length > 1;
  return (
    <>
      {targets.productLists.map((t) => {
        const items = listItems(targets.values[t.path]);
        const rank = items.indexOf(productId);
        const where = many
          ? t.label.replace(/ › .*$/, '')
          : t.key === 'recommended_product_ids'
            ? 'answer'
            : listName(t.key);
        return (
          <Button
            key={t.path}
            size="sm"
            variant={rank >= 0 ? 'answered' : 'answer'}
            title={rank >= 0 ? `#${rank + 1} in ${t.label}; click to take it out` : `add ${productId} to ${t.label}`}
            onClick={() =>
              set(
                t,
                rank >= 0
                  ? joinList(items.filter((x) => x !== productId))
                  : appendToList(targets.values[t.path], productId),
              )
            }
            data-testid={t.init ? 'new-sub-answer' : 'add-to-answer'}
            data-target={t.path}
            aria-pressed={rank >= 0}
          >
            {rank >= 0 ? `✓ #${rank + 1} in ${where}` : `+ ${where === 'answer' ? 'Answer' : where}`}
          </Button>
        );
      })}
    </>
  );
}

type Fill = Array<[string, string]>;

function slotButton(
  slot: OrderSlot,
  many: boolean,
  fill: Fill,
  values: Record<string, string>,
  what: string,
  onFill: (f: Fill) => void,
) {
  const filled = fill.every(([path, v]) => values[path] === v);
  return (
    <Button
      key={slot.order.path + what}
      size="sm"
      variant={filled ? 'answered' : 'answer'}
      onClick={() => onFill(fill)}
      title={fill.map(([p, v]) => `${p} = ${v}`).join('; ')}
      data-testid={slot.init ? 'new-sub-answer' : 'use-in-answer'}
      data-target={slot.order.path}
    >
      {filled ? '✓ in answer' : `Use ${what} in answer`}
      {(many || slot.init) && slot.label ? ` (${slot.label})` : ''}
    </Button>
  );
}

/**
 * "Use in answer" for an order (answers that select an order but no line, e.g. STATUS: also
 * sets its status) or for a line (answers that select a line, e.g. RETURN; with
 * `ineligible`, also sets return_ineligible).
 */
export function UseInAnswer({
  orderId,
  lineId,
  status,
  ineligible,
}: {
  orderId: string;
  lineId?: string;
  status?: string;
  ineligible?: boolean;
}) {
  const targets = useAnswerTargets();
  const update = usePlayStore((s) => s.updateAnswerValues);
  if (!targets) return null;
  const slots = targets.orderSlots.filter(
    (s) => (lineId ? s.line !== undefined : s.line === undefined) && (!ineligible || s.ineligible),
  );
  if (slots.length === 0) return null;
  return (
    <>
      {slots.map((slot) => {
        const onFill = (fill: Fill) => update((v) => ({ ...v, ...slot.init, ...Object.fromEntries(fill) }));
        const fill: Fill = [[slot.order.path, orderId]];
        if (lineId && slot.line) fill.push([slot.line.path, lineId]);
        if (status && slot.status?.enumValues?.includes(status)) fill.push([slot.status.path, status]);
        if (ineligible && slot.ineligible) fill.push([slot.ineligible.path, 'true']);
        const what = ineligible ? '“not returnable”' : lineId ? 'line' : status ? `order (${status})` : 'order';
        return slotButton(slot, slots.length > 1, fill, targets.values, what, onFill);
      })}
    </>
  );
}

/** "Use in answer" on a policy rule: its answer (read off the rule's text) into policy_answer. */
export function UseRuleInAnswer({ text }: { text: string }) {
  const targets = useAnswerTargets();
  const update = usePlayStore((s) => s.updateAnswerValues);
  const answer = targets && targets.policyAnswers.length > 0 ? policyAnswerOf(text) : null;
  if (!targets || answer === null) return null;
  const many = targets.policyAnswers.length > 1;
  return (
    <>
      {targets.policyAnswers.map((t) => {
        const filled = targets.values[t.path] === String(answer);
        return (
          <Button
            key={t.path}
            size="sm"
            variant={filled ? 'answered' : 'answer'}
            title={`${t.label} = ${answer}`}
            onClick={() => update((v) => ({ ...v, ...t.init, [t.path]: String(answer) }))}
            data-testid={t.init ? 'new-sub-answer' : 'use-rule-in-answer'}
            data-target={t.path}
          >
            {filled ? '✓ in answer' : `Use ${answer} in answer`}
            {many || t.init ? ` (${t.label.replace(/ › .*$/, '')})` : ''}
          </Button>
        );
      })}
    </>
  );
}
