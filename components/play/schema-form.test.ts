import { describe, expect, it } from 'vitest';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import {
  addItem,
  appendToList,
  concreteFields,
  itemCount,
  listItems,
  moveUpInList,
  removeFromList,
  removeItem,
} from './form-values';
import { buildArgs, valuesFromArgs } from './schema-build';
import { choicePath, fieldsOf, itemField, typeText, type FormValues, type JsonSchema } from './schema-form';

const spec = (name: string) => toolSpecsFor('CART').find((t) => t.name === name)!.parameters as JsonSchema;

describe('forms from JSON Schema', () => {
  it('reads strings, integers, optional fields and the nested filters object of catalog.search', () => {
    const fields = fieldsOf(spec('catalog.search'));
    const byKey = Object.fromEntries(fields.map((f) => [f.key, f]));
    expect(byKey.query).toMatchObject({ kind: 'string', required: true });
    expect(byKey.top_k).toMatchObject({ kind: 'integer', required: false, min: 1, max: undefined });
    expect(byKey.filters.kind).toBe('object');
    const filters = Object.fromEntries(byKey.filters.children!.map((f) => [f.key, f]));
    expect(filters.price_max).toMatchObject({ kind: 'number', path: 'filters.price_max' });
    expect(filters.in_stock.kind).toBe('boolean');

    const { args, errors } = buildArgs(fields, {
      query: 'camping stove',
      'filters.color': 'Black',
      'filters.in_stock': 'true',
      top_k: '',
    });
    expect(errors).toEqual({});
    expect(args).toEqual({ query: 'camping stove', filters: { color: 'Black', in_stock: true } });
  });

  it('reports precise field errors and omits empty optional objects', () => {
    const fields = fieldsOf(spec('catalog.search'));
    expect(buildArgs(fields, { top_k: '2.5' }).errors).toEqual({
      query: 'query is required',
      top_k: 'top_k must be a whole number',
    });
    expect(buildArgs(fields, { query: 'x', 'filters.rating_min': '9' }).errors).toEqual({
      'filters.rating_min': 'rating_min must be ≤ 5',
    });
    expect(buildArgs(fields, { query: 'x' }).args).toEqual({ query: 'x' });
  });

  it('handles defaults, enums, arrays and prefilled values', () => {
    const cartAdd = fieldsOf(spec('cart.add'));
    const qty = cartAdd.find((f) => f.key === 'quantity')!;
    expect(qty.required).toBe(false); // it has a default
    const values = valuesFromArgs({ product_id: 'syn_1', variant_id: 'syn_1_v_color_Red' });
    expect(buildArgs(cartAdd, { ...values, quantity: '3' }).args).toEqual({
      product_id: 'syn_1',
      variant_id: 'syn_1_v_color_Red',
      quantity: 3,
    });

    const schema: JsonSchema = {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['mail', 'in_store'] },
        ids: { type: 'array', items: { type: 'string' } },
        n: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      },
      required: ['method', 'ids'],
    };
    const f = fieldsOf(schema);
    expect(f.map((x) => x.kind)).toEqual(['enum', 'array', 'number']);
    expect(buildArgs(f, { method: 'mail', ids: 'a, b\nc', n: '1.5' }).args).toEqual({
      method: 'mail',
      ids: ['a', 'b', 'c'],
      n: 1.5,
    });
    expect(valuesFromArgs({ ids: ['a', 'b'], filters: { color: 'Red' } })).toEqual({
      ids: 'a, b',
      'filters.color': 'Red',
    });
  });

  it('every available env answer schema and tool schema gives a form', () => {
    for (const env of listEnvs()) {
      const answerFields = fieldsOf(env.answerSchema as JsonSchema);
      expect(answerFields.every((f) => f.kind !== undefined)).toBe(true);
      for (const tool of toolSpecsFor(env.id)) {
        const fields = fieldsOf(tool.parameters as JsonSchema);
        // an empty form builds the args object without throwing; errors name only required fields
        const { errors } = buildArgs(fields, {});
        for (const path of Object.keys(errors)) expect(fields.find((f) => f.path === path)?.required).toBe(true);
      }
    }
  });
});

const answerSchema = (envId: string) => listEnvs().find((e) => e.id === envId)!.answerSchema as JsonSchema;

describe('answer forms of every environment', () => {
  it('PD: recommended_product_ids is a required list of strings, edited as a ranked list', () => {
    const [f] = fieldsOf(answerSchema('PD'));
    expect(f).toMatchObject({
      key: 'recommended_product_ids',
      kind: 'array',
      itemKind: 'string',
      required: true,
      maxItems: 50,
    });
    expect(typeText(f)).toBe('list of strings');
    expect(buildArgs([f], {}).errors).toEqual({
      recommended_product_ids: 'recommended_product_ids needs at least one item',
    });
    expect(buildArgs([f], { recommended_product_ids: ' , ' }).errors).toEqual({
      recommended_product_ids: 'recommended_product_ids needs at least one item',
    });
    let text = appendToList('', 'syn_1');
    text = appendToList(text, 'syn_2, syn_3\nsyn_1'); // pasted; duplicates are skipped
    expect(listItems(text)).toEqual(['syn_1', 'syn_2', 'syn_3']);
    text = moveUpInList(text, 2);
    expect(listItems(text)).toEqual(['syn_1', 'syn_3', 'syn_2']);
    text = removeFromList(text, 0);
    expect(buildArgs([f], { recommended_product_ids: text }).args).toEqual({
      recommended_product_ids: ['syn_3', 'syn_2'],
    });
    const many = Array.from({ length: 51 }, (_, i) => `p${i}`).join(', ');
    expect(buildArgs([f], { recommended_product_ids: many }).errors.recommended_product_ids).toBe(
      'recommended_product_ids: at most 50 items',
    );
  });

  it('RETURN: order and line ids, optional replacement list and ineligible flag', () => {
    const fields = fieldsOf(answerSchema('RETURN'));
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['selected_order_id', 'string', true],
      ['selected_line_id', 'string', true],
      ['replacement_product_ids', 'array', false],
      ['return_ineligible', 'boolean', false],
    ]);
    expect(buildArgs(fields, { selected_order_id: 'ORD-1', selected_line_id: 'ORD-1-L2' }).args).toEqual({
      selected_order_id: 'ORD-1',
      selected_line_id: 'ORD-1-L2',
    });
    expect(
      buildArgs(fields, {
        selected_order_id: 'ORD-1',
        selected_line_id: 'ORD-1-L2',
        replacement_product_ids: 'a, b',
        return_ineligible: 'true',
      }).args,
    ).toEqual({
      selected_order_id: 'ORD-1',
      selected_line_id: 'ORD-1-L2',
      replacement_product_ids: ['a', 'b'],
      return_ineligible: true,
    });
  });

  it('STATUS: order_status is a select of the five statuses', () => {
    const fields = fieldsOf(answerSchema('STATUS'));
    expect(fields[1]).toMatchObject({
      key: 'order_status',
      kind: 'enum',
      enumValues: ['CONFIRMED', 'SHIPPED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'],
    });
    expect(buildArgs(fields, { selected_order_id: 'ORD-1', order_status: 'LOST' }).errors).toEqual({
      order_status: 'order_status must be one of CONFIRMED, SHIPPED, IN_TRANSIT, DELIVERED, CANCELLED',
    });
  });

  it('POLICY: policy_answer is a number | string union, read as a number when it parses', () => {
    const [f] = fieldsOf(answerSchema('POLICY'));
    expect(f).toMatchObject({ kind: 'union', required: true, discriminator: undefined });
    expect(f.options!.map((o) => [o.label, o.kind])).toEqual([
      ['number', 'number'],
      ['string', 'string'],
    ]);
    expect(typeText(f)).toBe('number or string');
    expect(buildArgs([f], { policy_answer: ' 35.5 ' }).args).toEqual({ policy_answer: 35.5 });
    expect(buildArgs([f], { policy_answer: '5-7 business days' }).args).toEqual({ policy_answer: '5-7 business days' });
    // an explicit choice wins over the guess
    expect(buildArgs([f], { policy_answer: '35', [choicePath(f)]: 'string' }).args).toEqual({ policy_answer: '35' });
    expect(buildArgs([f], { policy_answer: 'about 35', [choicePath(f)]: 'number' }).errors).toEqual({
      policy_answer: 'policy_answer must be a number',
    });
    expect(buildArgs([f], {}).errors).toEqual({ policy_answer: 'policy_answer is required' });
    // the same from a JSON Schema type list
    const [g] = fieldsOf({ type: 'object', properties: { x: { type: ['number', 'string', 'null'] } } });
    expect(g.kind).toBe('union');
    expect(buildArgs([g], { x: '7' }).args).toEqual({ x: 7 });
    expect(buildArgs([g], { x: '' }).args).toEqual({});
  });

  it('JOURNEY: subtasks is a list of a union told apart by env; each option shows that env’s fields', () => {
    const [f] = fieldsOf(answerSchema('JOURNEY'));
    expect(f).toMatchObject({ key: 'subtasks', kind: 'array', itemKind: 'union', required: true });
    const item = itemField(f, 0);
    expect(item).toMatchObject({ path: 'subtasks.0', key: 'subtasks[1]', kind: 'union', discriminator: 'env' });
    expect(item.options!.map((o) => o.label)).toEqual(['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE']);
    const status = item.options!.find((o) => o.label === 'STATUS')!;
    expect(status.children!.map((c) => c.path)).toEqual([
      'subtasks.0.selected_order_id',
      'subtasks.0.order_status',
      'subtasks.0.subtask_index',
    ]);
    expect(typeText(f)).toBe('list of PD | SUB | CART | RETURN | STATUS | POLICY | BUNDLE');

    // no items: an empty list (the final answer after every sub-task was answered)
    expect(buildArgs([f], {}).args).toEqual({ subtasks: [] });

    let v: FormValues = addItem({}, 'subtasks');
    expect(buildArgs([f], v).errors).toEqual({ 'subtasks.0': 'subtasks[1]: choose its env' });
    v = { ...v, 'subtasks.0.env': 'SUB', 'subtasks.0.recommended_product_ids': 'a, b' };
    v = addItem(v, 'subtasks', { env: 'POLICY', policy_answer: '35' });
    v = addItem(v, 'subtasks', { env: 'STATUS', selected_order_id: 'ORD-1' });
    expect(buildArgs([f], v).errors).toEqual({ 'subtasks.2.order_status': 'order_status is required' });
    v['subtasks.2.order_status'] = 'SHIPPED';
    const built = buildArgs([f], v);
    expect(built.errors).toEqual({});
    expect(built.args).toEqual({
      subtasks: [
        { env: 'SUB', recommended_product_ids: ['a', 'b'] },
        { env: 'POLICY', policy_answer: 35 },
        { env: 'STATUS', selected_order_id: 'ORD-1', order_status: 'SHIPPED' },
      ],
    });
    // the answer round-trips through form text
    expect(buildArgs([f], valuesFromArgs(built.args)).args).toEqual(built.args);

    // the fields the form has now, e.g. for "add to answer" buttons
    const leafs = concreteFields([f], v);
    expect(leafs.filter((c) => c.key === 'recommended_product_ids').map((c) => [c.path, c.label, c.parent])).toEqual([
      ['subtasks.0.recommended_product_ids', 'subtasks[1] SUB › recommended_product_ids', 'subtasks.0'],
    ]);
    expect(leafs.find((c) => c.key === 'order_status')?.path).toBe('subtasks.2.order_status');

    // removing the first item moves the others down
    const removed = removeItem(v, 'subtasks', 0);
    expect(buildArgs([f], removed).args).toEqual({
      subtasks: built.args.subtasks && (built.args.subtasks as unknown[]).slice(1),
    });
    expect(itemCount(removed, 'subtasks')).toBe(2);
  });

  it('lists of plain objects and constants', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        lines: {
          type: 'array',
          maxItems: 2,
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, qty: { type: 'integer', minimum: 1 }, kind: { const: 'line' } },
            required: ['id', 'kind'],
          },
        },
      },
    };
    const [f] = fieldsOf(schema);
    expect(f).toMatchObject({ kind: 'array', itemKind: 'object', required: false });
    expect(buildArgs([f], {}).args).toEqual({});
    let v = addItem(addItem({}, 'lines', { id: 'a', qty: '2' }), 'lines', { id: 'b' });
    expect(buildArgs([f], v).args).toEqual({
      lines: [
        { id: 'a', qty: 2, kind: 'line' },
        { id: 'b', kind: 'line' },
      ],
    });
    v = addItem(v, 'lines', { id: 'c', qty: '0' });
    expect(buildArgs([f], v).errors).toEqual({ lines: 'lines: at most 2 items', 'lines.2.qty': 'qty must be ≥ 1' });
  });
});
