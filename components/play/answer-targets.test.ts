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

  it('STATUS: an order slot with a status and no line; POLICY: its answer; CART: nothing', () => {
    const [slot] = answerTargets(fieldsFor('STATUS'), {}).orderSlots;
    expect(slot.line).toBeUndefined();
    expect(slot.status?.enumValues).toContain('IN_TRANSIT');
    expect(answerTargets(fieldsFor('POLICY'), {}).policyAnswers.map((f) => f.path)).toEqual(['policy_answer']);
    expect(answerTargets(fieldsFor('CART'), {})).toMatchObject({ productLists: [], orderSlots: [], policyAnswers: [] });
  });

  it('JOURNEY: targets follow the sub-answers in the form, labelled by item and env, then new ones per env', () => {
    const fields = fieldsFor('JOURNEY');
    const existing = (t: ReturnType<typeof answerTargets>) => t.productLists.filter((l) => !l.init);
    expect(existing(answerTargets(fields, {}))).toEqual([]);
    let v = addItem({}, 'subtasks'); // env not chosen yet: no fields of its own
    expect(existing(answerTargets(fields, v))).toEqual([]);
    v = addItem({ ...v, 'subtasks.0.env': 'STATUS' }, 'subtasks', { env: 'PD' });
    const t = answerTargets(fields, v);
    expect(existing(t).map((l) => [l.path, l.label])).toEqual([
      ['subtasks.1.recommended_product_ids', 'subtasks[2] PD › recommended_product_ids'],
    ]);
    expect(t.orderSlots.filter((s) => !s.init).map((s) => [s.label, s.order.path, s.status?.path])).toEqual([
      ['subtasks[1] STATUS', 'subtasks.0.selected_order_id', 'subtasks.0.order_status'],
    ]);
  });

  it('JOURNEY: a card can start a sub-answer of an env the form has none of yet (no env picked by hand)', () => {
    const fields = fieldsFor('JOURNEY');
    const t = answerTargets(fields, {});
    // PD, SUB and BUNDLE take product lists, RETURN a replacement list; STATUS and RETURN select orders
    expect(t.productLists.map((l) => l.label.replace(/ › .*/, ''))).toEqual(
      expect.arrayContaining(['PD (new)', 'SUB (new)', 'BUNDLE (new)', 'RETURN (new)']),
    );
    const pd = t.productLists.find((l) => l.label.startsWith('PD (new)'))!;
    expect(pd.path).toBe('subtasks.0.recommended_product_ids');
    expect(pd.init).toEqual({ 'subtasks#items': '1', 'subtasks.0.env': 'PD' });
    expect(t.orderSlots.map((s) => s.label)).toEqual(expect.arrayContaining(['STATUS (new)', 'RETURN (new)']));
    expect(t.policyAnswers.map((f) => [f.path, f.init])).toEqual([
      ['subtasks.0.policy_answer', { 'subtasks#items': '1', 'subtasks.0.env': 'POLICY' }],
    ]);
    // once a PD sub-answer exists, its list is the target and no new PD one is offered
    const after = answerTargets(fields, { ...pd.init });
    expect(after.productLists.filter((l) => l.label.includes('PD')).map((l) => [l.label, !!l.init])).toEqual([
      ['subtasks[1] PD › recommended_product_ids', false],
    ]);
    expect(after.productLists.find((l) => l.label.startsWith('SUB (new)'))?.path).toBe(
      'subtasks.1.recommended_product_ids',
    );
  });
});
