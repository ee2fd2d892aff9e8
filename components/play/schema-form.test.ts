import { describe, expect, it } from 'vitest';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import { buildArgs, fieldsOf, valuesFromArgs, type JsonSchema } from './schema-form';

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

    const { args, errors } = buildArgs(fields, { query: 'camping stove', 'filters.color': 'Black', 'filters.in_stock': 'true', top_k: '' });
    expect(errors).toEqual({});
    expect(args).toEqual({ query: 'camping stove', filters: { color: 'Black', in_stock: true } });
  });

  it('reports precise field errors and omits empty optional objects', () => {
    const fields = fieldsOf(spec('catalog.search'));
    expect(buildArgs(fields, { top_k: '2.5' }).errors).toEqual({ query: 'query is required', top_k: 'top_k must be a whole number' });
    expect(buildArgs(fields, { query: 'x', 'filters.rating_min': '9' }).errors).toEqual({ 'filters.rating_min': 'rating_min must be ≤ 5' });
    expect(buildArgs(fields, { query: 'x' }).args).toEqual({ query: 'x' });
  });

  it('handles defaults, enums, arrays and prefilled values', () => {
    const cartAdd = fieldsOf(spec('cart.add'));
    const qty = cartAdd.find((f) => f.key === 'quantity')!;
    expect(qty.required).toBe(false); // it has a default
    const values = valuesFromArgs({ product_id: 'syn_1', variant_id: 'syn_1_v_color_Red' });
    expect(buildArgs(cartAdd, { ...values, quantity: '3' }).args).toEqual({ product_id: 'syn_1', variant_id: 'syn_1_v_color_Red', quantity: 3 });

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
    expect(buildArgs(f, { method: 'mail', ids: 'a, b\nc', n: '1.5' }).args).toEqual({ method: 'mail', ids: ['a', 'b', 'c'], n: 1.5 });
    expect(valuesFromArgs({ ids: ['a', 'b'], filters: { color: 'Red' } })).toEqual({ ids: 'a, b', 'filters.color': 'Red' });
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
