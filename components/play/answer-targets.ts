// Where result-card buttons can put things in the answer form as it is now: the lists of
// product ids, and the objects that select an order (with a line, a status, the "not
// returnable" flag). JOURNEY's sub-answers each count.
import { concreteFields, type ConcreteField } from './form-values';
import type { FieldSpec, FormValues } from './schema-types';

export interface AnswerTargets {
  values: FormValues;
  /** Lists of product ids (recommended_product_ids, replacement_product_ids, …). */
  productLists: ConcreteField[];
  /** Objects with a selected_order_id: where an order (and a line, a status, the ineligible flag) goes. */
  orderSlots: OrderSlot[];
}

export interface OrderSlot {
  /** "" for the top-level answer, else e.g. "subtasks[2] RETURN". */
  label: string;
  order: ConcreteField;
  line?: ConcreteField;
  status?: ConcreteField;
  ineligible?: ConcreteField;
}

const groupLabel = (f: ConcreteField) => (f.label.includes(' › ') ? f.label.slice(0, f.label.lastIndexOf(' › ')) : '');

export function answerTargets(fields: FieldSpec[], values: FormValues): AnswerTargets {
  const leafs = concreteFields(fields, values);
  const sibling = (parent: string, key: string) => leafs.find((l) => l.parent === parent && l.key === key);
  return {
    values,
    productLists: leafs.filter((l) => l.kind === 'array' && l.itemKind === 'string' && /product_ids?$/.test(l.key)),
    orderSlots: leafs
      .filter((l) => l.key === 'selected_order_id')
      .map((order) => ({
        label: groupLabel(order),
        order,
        line: sibling(order.parent, 'selected_line_id'),
        status: sibling(order.parent, 'order_status'),
        ineligible: sibling(order.parent, 'return_ineligible'),
      })),
  };
}
