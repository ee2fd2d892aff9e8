// Where result-card buttons can put things in the answer form as it is now: the lists of
// product ids, the objects that select an order (with a line, a status, the "not returnable"
// flag), and policy answers. JOURNEY's sub-answers each count, and so does a sub-answer not
// added yet: a card's button can start one of the fitting env (its `init` adds the item and
// picks the env), so a JOURNEY is answered from the cards without picking the env by hand.
import { concreteFields, itemCount, type ConcreteField } from './form-values';
import { hasItems, itemField } from './schema-form';
import type { FieldSpec, FormValues } from './schema-types';

/** Values a target sets before it is filled: a new sub-answer's item count and env (absent: it exists). */
export type Init = FormValues | undefined;

export interface AnswerTargets {
  values: FormValues;
  /** Lists of product ids (recommended_product_ids, replacement_product_ids, …). */
  productLists: Array<ConcreteField & { init?: FormValues }>;
  /** Objects with a selected_order_id: where an order (and a line, a status, the ineligible flag) goes. */
  orderSlots: OrderSlot[];
  /** POLICY's policy_answer fields. */
  policyAnswers: Array<ConcreteField & { init?: FormValues }>;
}

export interface OrderSlot {
  /** "" for the top-level answer, else e.g. "subtasks[2] RETURN". */
  label: string;
  order: ConcreteField;
  line?: ConcreteField;
  status?: ConcreteField;
  ineligible?: ConcreteField;
  init?: FormValues;
}

const groupLabel = (f: ConcreteField) => (f.label.includes(' › ') ? f.label.slice(0, f.label.lastIndexOf(' › ')) : '');

function targetsOf(leafs: ConcreteField[], init: Init): Omit<AnswerTargets, 'values'> {
  const sibling = (parent: string, key: string) => leafs.find((l) => l.parent === parent && l.key === key);
  const withInit = <T extends object>(t: T) => (init ? { ...t, init } : t);
  return {
    productLists: leafs
      .filter((l) => l.kind === 'array' && l.itemKind === 'string' && /product_ids?$/.test(l.key))
      .map(withInit),
    orderSlots: leafs
      .filter((l) => l.key === 'selected_order_id')
      .map((order) =>
        withInit({
          label: groupLabel(order),
          order,
          line: sibling(order.parent, 'selected_line_id'),
          status: sibling(order.parent, 'order_status'),
          ineligible: sibling(order.parent, 'return_ineligible'),
        }),
      ),
    policyAnswers: leafs.filter((l) => l.key === 'policy_answer').map(withInit),
  };
}

/**
 * For each list of discriminated sub-answers (JOURNEY's subtasks), the targets of a new item of
 * every option the list holds no item of yet, labelled "(new)".
 */
function newItemTargets(fields: FieldSpec[], values: FormValues): Array<Omit<AnswerTargets, 'values'>> {
  const out: Array<Omit<AnswerTargets, 'values'>> = [];
  for (const f of fields) {
    if (!hasItems(f) || f.itemKind !== 'union') continue;
    const n = itemCount(values, f.path);
    const item = itemField(f, n);
    const disc = item.discriminator;
    if (!disc) continue;
    const taken = new Set(Array.from({ length: n }, (_, i) => values[`${f.path}.${i}.${disc}`]));
    for (const option of item.options ?? []) {
      if (option.kind !== 'object' || taken.has(option.label)) continue;
      const init = { [`${f.path}#items`]: String(n + 1), [`${item.path}.${disc}`]: option.label };
      const leafs = concreteFields([item], { ...values, ...init }).map((l) => ({
        ...l,
        label: l.label.replace(`${item.key} ${option.label}`, `${option.label} (new)`),
      }));
      out.push(targetsOf(leafs, init));
    }
  }
  return out;
}

export function answerTargets(fields: FieldSpec[], values: FormValues): AnswerTargets {
  const all = [targetsOf(concreteFields(fields, values), undefined), ...newItemTargets(fields, values)];
  return {
    values,
    productLists: all.flatMap((t) => t.productLists),
    orderSlots: all.flatMap((t) => t.orderSlots),
    policyAnswers: all.flatMap((t) => t.policyAnswers),
  };
}
