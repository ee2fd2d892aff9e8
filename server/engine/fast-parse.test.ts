import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fullAnswerSchema } from './answer-check';
import { availableEnvs } from './envs/registry';
import { isPrecompiled, safeParseFast } from './fast-parse';
import { ALL_TOOLS } from './tools';

// zod internals the generator reads to aim its values at a schema's edges.
type Def = Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: Record<string, unknown> } }> };
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;

/** A small deterministic generator (mulberry32: the same values on every run). */
function makeRandom(seed: number) {
  let a = seed >>> 0;
  const next = (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n) | 0;
  };
  const pick = <T>(values: readonly T[]): T => values[next(values.length)];
  return { next, pick };
}
type Random = ReturnType<typeof makeRandom>;

const JUNK: unknown[] = [
  undefined,
  null,
  '',
  'x',
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  {},
  ['a'],
  { a: 1 },
  new Date(0),
];

function bounds(def: Def): number[] {
  const own = typeof def.check === 'string' ? [def] : [];
  const values = [...own, ...(def.checks ?? []).map((c) => c._zod.def)].flatMap((c) =>
    [c.value, c.minimum, c.maximum].filter((v): v is number => typeof v === 'number'),
  );
  return values.flatMap((b) => [b - 1, b - 0.5, b, b + 1]);
}

/** A value aimed at the schema: mostly valid, near its edges, sometimes junk. */
function valueFor(schema: unknown, r: Random, depth = 0): unknown {
  if (r.next(30) === 0) return r.pick(JUNK);
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const [min] = bounds(def).length ? [bounds(def)[2]] : [0];
      return r.pick(['PRD-00001', 'a', '', '😀', '\ud800', 'é', 'x'.repeat(Math.max(0, min)), `s${r.next(100)}`]);
    }
    case 'number':
      return r.pick([...bounds(def), 0, -0, 3, 7.25, 1e21, Number.MAX_SAFE_INTEGER + 2, Number.NaN, '3']);
    case 'boolean':
      return r.pick([true, false, 'true', 0]);
    case 'enum':
    case 'literal': {
      const values = [...(schema as { _zod: { values: Set<unknown> } })._zod.values];
      return r.next(5) === 0 ? r.pick(['nope', 7, null]) : r.pick(values);
    }
    case 'array': {
      const sizes = [0, 1, 2, 3, ...bounds(def).filter((b) => Number.isInteger(b) && b >= 0 && b < 600)];
      const n = depth > 2 ? r.next(2) : r.next(4) === 0 ? r.pick(sizes) : r.next(4);
      return Array.from({ length: n }, () => valueFor(def.element, r, depth + 1));
    }
    case 'optional':
    case 'nullable':
    case 'default': {
      const roll = r.next(4);
      if (roll === 0) return undefined;
      if (roll === 1) return null;
      return valueFor(def.innerType, r, depth + 1);
    }
    case 'union':
      return valueFor(r.pick(def.options as unknown[]), r, depth + 1);
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) if (r.next(12) < 11) out[key] = valueFor(shape[key], r, depth + 1);
      const roll = r.next(20);
      if (roll === 0) out.extra = 1;
      if (roll === 1) return JSON.parse(`{"__proto__": 1}`);
      // an inherited key: zod reads keys with `in` and for…in, so inherited ones count
      if (roll === 2) return Object.create(out);
      return out;
    }
    default:
      throw new Error(`no generator for ${def.type}`);
  }
}

// Key order and undefined-valued keys matter, so compare as text that keeps both.
const asText = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '<undefined>' : x));

function compare(schema: z.ZodType, values: Iterable<unknown>) {
  let accepted = 0;
  let refused = 0;
  const zodCalls = vi.spyOn(schema, 'safeParse');
  for (const value of values) {
    zodCalls.mockClear();
    const fast = safeParseFast(schema, value);
    // zod itself runs only for a value it refuses (for the error): every valid one passes without it
    const fellBack = zodCalls.mock.calls.length > 0;
    const slow = schema.safeParse(value);
    if (fellBack === slow.success)
      expect.fail(`${asText(value)}: ${fellBack ? 'valid, but checked by zod' : 'invalid, but not given to zod'}`);
    // the value as text only on a difference (big arrays make it slow)
    const same =
      fast.success === slow.success &&
      asText(fast.success ? fast.data : fast.error.issues) === asText(slow.success ? slow.data : slow.error.issues);
    if (!same) expect(asText(fast), asText(value)).toBe(asText(slow));
    if (slow.success) accepted++;
    else refused++;
  }
  zodCalls.mockRestore();
  return { accepted, refused };
}

function* valuesFor(schema: unknown, seed: number, count: number) {
  const r = makeRandom(seed);
  for (let i = 0; i < count; i++) yield valueFor(schema, r);
}

describe('safeParseFast (zod schemas checked without zod)', () => {
  it.each(ALL_TOOLS.map((t) => [t.name, t] as const))('%s: the same result as zod', (_name, tool) => {
    expect(isPrecompiled(tool.args)).toBe(true);
    const { accepted, refused } = compare(tool.args, valuesFor(tool.args, 7, 400));
    // both sides exercised (a tool without arguments accepts only {} and objects without keys)
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });

  it.each(availableEnvs().map((e) => [e.id, e] as const))('%s answers: the same result as zod', (_id, env) => {
    const schema = fullAnswerSchema(env);
    expect(isPrecompiled(schema)).toBe(true);
    expect(isPrecompiled(env.answerSchema)).toBe(true);
    const { accepted, refused } = compare(schema, valuesFor(schema, 11, 400));
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
    compare(env.answerSchema, valuesFor(env.answerSchema, 13, 200));
  });

  it('follows zod on hand-picked edges', () => {
    const schema = z.strictObject({
      name: z.string().min(2).max(3),
      n: z.int().min(1).max(10).default(4),
      x: z.number().gt(0).lt(1).optional(),
      tags: z
        .array(z.enum(['a', 'b']))
        .max(2)
        .optional(),
      either: z
        .union([z.number(), z.string().min(1)])
        .nullable()
        .optional(),
      nested: z.object({ flag: z.boolean() }).optional(),
    });
    expect(isPrecompiled(schema)).toBe(true);
    const cases: unknown[] = [
      { name: '😀' }, // one code point in two units: too short
      { name: '😀😀' },
      { name: '😀😀😀' },
      { name: '😀😀😀😀' }, // four code points in eight units: too long
      { name: 'ab', n: undefined },
      { name: 'ab', n: 10.5 },
      { name: 'ab', n: 2 ** 53 },
      { name: 'ab', x: 0 },
      { name: 'ab', x: 0.5, tags: ['a', 'b'] },
      { name: 'ab', tags: ['a', 'b', 'a'] },
      { name: 'ab', either: '' },
      { name: 'ab', either: -0 },
      { name: 'ab', either: null },
      { name: 'ab', nested: { flag: true, dropped: 1 } },
      { name: 'ab', nested: { flag: true }, more: 1 },
      Object.create({ name: 'ab' }),
    ];
    const { accepted, refused } = compare(schema, cases);
    expect([accepted, refused]).toEqual([8, 8]);
  });

  it('takes the first union option that accepts, as zod does', () => {
    const loose = z.object({ a: z.string() });
    const schema = z.union([loose, z.strictObject({ a: z.string(), b: z.number() })]);
    expect(safeParseFast(schema, { a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } });
    expect(compare(schema, [{ a: 'x', b: 1 }, { a: 'x' }, { b: 1 }])).toEqual({ accepted: 2, refused: 1 });
  });

  it('leaves schemas it cannot follow to zod', () => {
    const refined = z.strictObject({ a: z.string().refine((s) => s.startsWith('a')) });
    const transformed = z.strictObject({ a: z.string().transform((s) => s.length) });
    const email = z.strictObject({ a: z.email() });
    for (const schema of [refined, transformed, email]) {
      expect(isPrecompiled(schema)).toBe(false);
      for (const a of ['abc', 'bcd', 'a@b.co']) {
        const fast = safeParseFast(schema, { a });
        const slow = schema.safeParse({ a });
        expect(fast.success).toBe(slow.success);
        if (slow.success) expect(fast.data).toStrictEqual(slow.data);
      }
    }
  });
});
