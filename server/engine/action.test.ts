import { describe, expect, it } from 'vitest';
import { MAX_ACTION_CHARS, normaliseToolName, parseAction } from './action';

const ok = (v: unknown) => {
  const r = parseAction(v);
  if (!r.ok) throw new Error(r.error);
  return r.action;
};
const err = (v: unknown) => {
  const r = parseAction(v);
  if (r.ok) throw new Error('expected an error');
  return r.error;
};

describe('parseAction', () => {
  it('accepts a full action as text or object', () => {
    const text = '{"assistant_message":"hi","tool_calls":[{"name":"cart.view","args":{}}],"answer":null}';
    expect(ok(text)).toEqual({ assistant_message: 'hi', tool_calls: [{ name: 'cart.view', args: {} }], answer: null });
    expect(ok({ assistant_message: 'done', answer: { env: 'CART', done: true } }).answer).toEqual({
      env: 'CART',
      done: true,
    });
  });

  it('defaults missing tool_calls to none', () => {
    expect(ok({ assistant_message: 'x' }).tool_calls).toEqual([]);
  });

  it('explains each malformed action precisely', () => {
    expect(err('not json')).toMatch(/^action is not valid JSON: /);
    expect(err('[1,2]')).toBe('action must be a JSON object, got a list');
    expect(err('')).toBe('action is empty; expected a JSON object');
    expect(err({ tool_calls: [] })).toBe('action is missing "assistant_message"');
    expect(err({ assistant_message: 3 })).toBe('"assistant_message" must be a string, got number');
    expect(err({ assistant_message: '   ' })).toBe('"assistant_message" must not be empty');
    expect(err({ assistant_message: 'x', tool_calls: {} })).toBe('"tool_calls" must be a list, got object');
    expect(err({ assistant_message: 'x', answer: 'yes' })).toBe('"answer" must be an object or null, got string');
    expect(err({ assistant_message: 'x', answer: { done: true } })).toMatch(/answer\.env/);
    expect(err({ assistant_message: 'x', answer: { env: 'CART', done: 'yes' } })).toMatch(/answer\.done/);
  });

  it('rejects oversized text before parsing it', () => {
    expect(err(`{"assistant_message":"${'a'.repeat(MAX_ACTION_CHARS)}"}`)).toMatch(/the limit is 65536/);
  });
});

describe('normaliseToolName', () => {
  const known = (n: string) => ['catalog.search', 'cart.set_quantity'].includes(n);
  it('maps native function names to dotted tool names', () => {
    expect(normaliseToolName('catalog_search', known)).toBe('catalog.search');
    expect(normaliseToolName('cart_set_quantity', known)).toBe('cart.set_quantity');
    expect(normaliseToolName('cart.set_quantity', known)).toBe('cart.set_quantity');
    expect(normaliseToolName('nope_tool', known)).toBe('nope_tool');
  });
});
