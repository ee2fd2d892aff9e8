import { describe, expect, it } from 'vitest';
import { listEnvs } from '@/server/engine';
import { answerTargets } from './answer-targets';
import { addItem } from './form-values';
import { fieldsOf, type JsonSchema } from './schema-form';

const fieldsFor = (envId: string) => fieldsOf(listEnvs().find((e) => e.id === envId)!.answerSchema as JsonSchema);

describe('answer targets for result-card buttons', () => {
  it('PD and BUNDLE: one product list; RETURN: the replacement list and a line slot with the ineligible flag', () => {
    expect(answerTargets(fieldsFor('PD'), {}).productLists.map((t) => t.path)).toEqual(['recommended_product_ids']);
    expect(answerTargets(fieldsFor('BUNDLE'), {}).orderSlots).toEqual([]);
    const ret = answerTargets(fieldsFor('RETURN'), {});
    expect(ret.productLists.map((t) => t.path)).toEqual(['replacement_product_ids']);
    expect(ret.orderSlots).toHaveLength(1);
    expect(ret.orderSlots[0]).toMatchObject({
      label: '',
      order: { path: 'selected_order_id' },
      line: { path: 'selected_line_id' },
      ineligible: { path: 'return_ineligible' },
    });
    expect(ret.orderSlots[0].status).toBeUndefined();
  });

  it('STATUS: an order slot with a status and no line; POLICY and CART: nothing', () => {
    const [slot] = answerTargets(fieldsFor('STATUS'), {}).orderSlots;
    expect(slot.line).toBeUndefined();
    expect(slot.status?.enumValues).toContain('IN_TRANSIT');
    for (const env of ['POLICY', 'CART'])
      expect(answerTargets(fieldsFor(env), {})).toMatchObject({ productLists: [], orderSlots: [] });
  });

  it('JOURNEY: targets follow the sub-answers in the form, labelled by item and env', () => {
    const fields = fieldsFor('JOURNEY');
    expect(answerTargets(fields, {})).toMatchObject({ productLists: [], orderSlots: [] });
    let v = addItem({}, 'subtasks'); // env not chosen yet: no fields, no targets
    expect(answerTargets(fields, v).productLists).toEqual([]);
    v = addItem({ ...v, 'subtasks.0.env': 'STATUS' }, 'subtasks', { env: 'PD' });
    const t = answerTargets(fields, v);
    expect(t.productLists.map((l) => [l.path, l.label])).toEqual([
      ['subtasks.1.recommended_product_ids', 'subtasks[2] PD › recommended_product_ids'],
    ]);
    expect(t.orderSlots.map((s) => [s.label, s.order.path, s.status?.path])).toEqual([
      ['subtasks[1] STATUS', 'subtasks.0.selected_order_id', 'subtasks.0.order_status'],
    ]);
  });
});
