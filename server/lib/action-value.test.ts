import { describe, expect, it } from 'vitest';
import { actionValueProblem, MAX_ACTION_DEPTH } from './action-value';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('actionValueProblem', () => {
  it('passes what round-trips through JSON and UTF-8', () => {
    const action = { assistant_message: 'hi 👋', tool_calls: [{ name: 'catalog_search', args: { q: 'é', n: 1e308 } }] };
    expect(actionValueProblem(action)).toBeNull();
    expect(JSON.parse(JSON.stringify(action))).toEqual(action);
    expect(actionValueProblem('{"a": [1, {"b": "}}}"}]} plain text')).toBeNull();
    expect(actionValueProblem({ a: nested(MAX_ACTION_DEPTH - 1) })).toBeNull();
  });

  it('refuses 1e309 (Infinity, stored as null) wherever it is', () => {
    const action = JSON.parse('{"assistant_message":"x","tool_calls":[{"name":"t","args":{"limit":1e309}}]}');
    expect(JSON.parse(JSON.stringify(action)).tool_calls[0].args.limit).toBeNull(); // what storing did
    expect(actionValueProblem(action)).toBe(
      'action.tool_calls[0].args.limit is a number JSON cannot store (Infinity); send a finite number',
    );
    expect(actionValueProblem({ n: -Infinity })).toMatch(/-Infinity/);
    expect(actionValueProblem({ n: NaN })).toMatch(/NaN/);
  });

  it('refuses lone surrogates in values, keys and text; a pair is fine', () => {
    expect(actionValueProblem({ m: 'a\ud800b' })).toBe('action.m holds a lone surrogate (not valid UTF-16 text)');
    expect(actionValueProblem({ ['\udc00']: 1 })).toMatch(/key with a lone surrogate/);
    expect(actionValueProblem('hello \udfff')).toBe('action text holds a lone surrogate (not valid UTF-16 text)');
    expect(actionValueProblem({ m: '\ud83d\udc4b' })).toBeNull();
  });

  it('refuses 100k-deep nesting without overflowing (objects and text)', () => {
    expect(actionValueProblem({ args: nested(100_000) })).toBe(`action nests deeper than ${MAX_ACTION_DEPTH} levels`);
    expect(actionValueProblem('{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}')).toBe(
      `action text nests deeper than ${MAX_ACTION_DEPTH} levels`,
    );
    // brackets inside a JSON string do not count
    expect(actionValueProblem('"' + '['.repeat(1000) + '"')).toBeNull();
  });
});
