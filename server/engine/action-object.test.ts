// A structured action is parsed without its JSON text (issue 13): the result must be exactly
// the text path's, raw text included, for valid actions, limits and every field error.
import { describe, expect, it } from 'vitest';
import { jsonDataError, MAX_ACTION_CHARS, parseAction } from './action';
import { Rng } from './random';

/** What parseAction gave before: the action judged as its JSON text. */
function viaText(input: object) {
  if (jsonDataError(input) !== null) return null;
  return parseAction(JSON.stringify(input));
}

function expectSame(input: object) {
  const expected = viaText(input);
  const got = parseAction(input);
  if (expected === null) return;
  expect(got.ok).toBe(expected.ok);
  expect(got.raw).toBe(expected.raw);
  if (got.ok && expected.ok) {
    expect(got.action).toStrictEqual(expected.action);
    // key order too: the event log stores what the agent sent
    expect(JSON.stringify(got.action)).toBe(JSON.stringify(expected.action));
    // -0 becomes 0, as JSON does
    expect(Object.is(JSON.parse(JSON.stringify(got.action)), got.action)).toBe(false);
  } else if (!got.ok && !expected.ok) expect(got.error).toBe(expected.error);
}

const STRINGS = [
  '',
  'a',
  'é',
  '"q"',
  'back\\slash',
  'line\nbreak\t',
  '\u0001\u001f',
  '\ud83d\ude00',
  '\ud800',
  'x\udc00y',
  ' ',
];

function randomValue(rng: Rng, depth: number): unknown {
  const r = rng.int(0, depth > 3 ? 5 : 8);
  if (r === 0) return rng.pick(STRINGS) + rng.pick(STRINGS);
  if (r === 1) return rng.pick([0, -0, 1, -1.5, 1e21, 5e-324, 123456789, 0.1]);
  if (r === 2) return rng.bernoulli(0.5);
  if (r === 3) return null;
  if (r === 4) return undefined;
  if (r === 5) return rng.pick(STRINGS);
  if (r === 6) return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
  const o: Record<string, unknown> = rng.bernoulli(0.2) ? Object.create(null) : {};
  for (let i = rng.int(0, 4); i > 0; i--)
    o[rng.pick(['a', 'b', '2', '10', 'k"', 'n\n', 'é'])] = randomValue(rng, depth + 1);
  return o;
}

function randomAction(rng: Rng): Record<string, unknown> {
  const action: Record<string, unknown> = {};
  if (rng.bernoulli(0.9))
    action.assistant_message = rng.bernoulli(0.9) ? rng.pick(STRINGS) + 'ok' : randomValue(rng, 2);
  if (rng.bernoulli(0.7))
    action.tool_calls = rng.bernoulli(0.9)
      ? Array.from({ length: rng.int(0, 3) }, () => ({ name: 'catalog.search', args: randomValue(rng, 1) }))
      : randomValue(rng, 2);
  if (rng.bernoulli(0.6))
    action.answer = rng.bernoulli(0.8)
      ? {
          env: rng.bernoulli(0.9) ? 'PD' : 3,
          done: rng.bernoulli(0.9) ? rng.bernoulli(0.5) : 'no',
          x: randomValue(rng, 1),
        }
      : randomValue(rng, 2);
  if (rng.bernoulli(0.2)) action.extra = randomValue(rng, 1);
  return action;
}

describe('parseAction of a structured action', () => {
  it('gives what its JSON text gives (2,000 random actions with escapes, undefined, -0, null prototypes)', () => {
    const rng = Rng.from('action-object', 1);
    for (let i = 0; i < 2000; i++) expectSame(randomAction(rng));
  });

  it('applies the size limits exactly as the text does, around the limit', () => {
    // text that grows when escaped (each unit costs its JSON length), right across the limit
    const room = MAX_ACTION_CHARS - '{"assistant_message":""}'.length;
    for (const [unit, cost] of [
      ['a', 1],
      ['"', 2],
      ['\n', 2],
      ['\u0001', 6],
      ['\ud800', 6],
      ['\udc00', 6],
      ['\ud83d\ude00', 2],
    ] as const)
      for (const delta of [-1, 0, 1]) expectSame({ assistant_message: unit.repeat(Math.floor(room / cost) + delta) });
    // many small members, where the walk's estimate (not the text) reaches the limit first
    for (const delta of [-2, -1, 0, 1, 2]) {
      const n = MAX_ACTION_CHARS - 30 + delta;
      expectSame({ assistant_message: 'x', tool_calls: new Array(Math.floor(n / 2)).fill(1) });
      expectSame({ assistant_message: 'x', tool_calls: new Array(Math.floor(n / 5)).fill(undefined) });
      expectSame({ assistant_message: 'x', tool_calls: new Array(Math.floor(n / 3)).fill([]) });
      expectSame({
        assistant_message: 'x',
        answer: Object.fromEntries(Array.from({ length: Math.floor(n / 9) }, (_, k) => [`k${k}`, 1])),
      });
    }
    // the longest numbers (25 characters for an estimate of 1) and widest escapes, where the exact
    // length is measured only because the estimate times its bound passes the limit
    for (const longest of [-0.0000012345678901234567, -2.2250738585072014e-308])
      for (const delta of [-1, 0, 1]) {
        const n = Math.floor((MAX_ACTION_CHARS - 30) / (String(longest).length + 1)) + delta;
        expectSame({ assistant_message: 'x', tool_calls: new Array(n).fill(longest) });
        expectSame({ assistant_message: 'x', answer: { env: 'PD', done: true, ids: new Array(n).fill(longest) } });
      }
    for (const delta of [-1, 0, 1]) expectSame({ ['\u0001'.repeat(10_918 + delta)]: 1, assistant_message: 'x' });
    // the walk's estimate counts a quote once, the text twice: only the exact length catches it
    const over = parseAction({ assistant_message: '"'.repeat(40_000) });
    expect(over.ok ? '' : over.error).toBe(`action is 80024 characters; the limit is ${MAX_ACTION_CHARS}`);
  });

  it('keeps what the text path decides for lists with toJSON and values that are not JSON', () => {
    const list: unknown[] = ['x'];
    (list as unknown as { toJSON: () => unknown }).toJSON = () => 'replaced';
    const r = parseAction({ assistant_message: 'x', answer: { env: 'PD', done: true, ids: list } });
    expect(r.ok && r.action.answer).toEqual({ env: 'PD', done: true, ids: 'replaced' });
    expect(parseAction({ assistant_message: 'x', n: NaN })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/NaN/),
    });
  });

  it('hands out a copy: changing the input afterwards changes neither the action nor its raw text', () => {
    const input = { assistant_message: 'x', tool_calls: [{ name: 'cart.view', args: {} }] };
    const r = parseAction(input);
    input.tool_calls[0].name = 'changed';
    expect(r.ok && r.action.tool_calls[0]).toEqual({ name: 'cart.view', args: {} });
    expect(r.raw).toBe('{"assistant_message":"x","tool_calls":[{"name":"cart.view","args":{}}]}');
  });

  it('refuses in one walk exactly what jsonDataError refuses, with its message (and accepts what it accepts)', () => {
    const cycle: Record<string, unknown> = { assistant_message: 'x' };
    cycle.self = { back: cycle };
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    let atLimit: unknown = 1;
    for (let i = 0; i < 31; i++) atLimit = [atLimit];
    const padded = {
      assistant_message: 'x',
      extra: Object.fromEntries(Array.from({ length: 7000 }, (_, k) => [`u${k}`, undefined])),
    };
    const cases: object[] = [
      { assistant_message: 'x', n: Infinity },
      { assistant_message: 'x', list: [1, -Infinity] },
      cycle,
      { assistant_message: 'x', deep },
      { assistant_message: 'x', deep: atLimit },
      { assistant_message: 'x', when: new Date(0) },
      JSON.parse('{"assistant_message":"x","args":{"__proto__":{"a":1}}}'),
      { assistant_message: 'x', constructor: 'y' },
      { assistant_message: 'x', f: () => 1 },
      { assistant_message: 'x', s: Symbol('s') },
      { assistant_message: 'x', big: 1n },
      padded, // undefined fields count for jsonDataError's budget, not for the copy
      { assistant_message: 'x', list: new Array(70_000).fill(0) },
    ];
    for (const input of cases) {
      const error = jsonDataError(input);
      const r = parseAction(input);
      if (error === null) expect(r.ok, JSON.stringify(r).slice(0, 200)).toBe(true);
      else expect(r.ok ? null : r.error).toBe(error);
    }
    expect(cases.filter((c) => jsonDataError(c) === null)).toHaveLength(1); // atLimit: 32 levels is allowed
  });
});
