// zod schemas checked without zod on the hot path (issue 13: zod was ~12 % of a step).
//
// A schema is compiled once into one plain function (generated source, object keys written as
// literals, as zod's own JIT does) that accepts exactly what zod accepts and returns what zod
// returns (defaults filled in, unknown keys of a plain object dropped, keys in the schema's
// order). zod stays the single definition: anything the function refuses goes to zod's own
// safeParse, so every error (and its wording) is zod's. A schema using a feature not handled
// here (refinements, transforms, string formats, …) is not compiled at all and always goes to
// zod. fast-parse.test.ts compares both over many valid and invalid values per schema.

import type { z } from 'zod';

const REJECT: unique symbol = Symbol('reject');
type Check = (value: unknown) => unknown;

class Unsupported extends Error {}

// zod's internals, typed as far as this file reads them.
interface Internals {
  def: Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: CheckDef } }> };
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
}
interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  format?: string;
  when?: unknown;
}
const internals = (schema: unknown) => (schema as { _zod: Internals })._zod;

/** Code points, counted as zod counts them (a surrogate pair is one). */
function codePoints(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

// The checks of a schema: its own (z.int() is itself a number_format check) and the added ones.
function checksOf(zod: Internals): CheckDef[] {
  const own = typeof zod.def.check === 'string' ? [zod.def as unknown as CheckDef] : [];
  return [...own, ...(zod.def.checks ?? []).map((c) => c._zod.def)];
}

/** Generated source: `code(schema, src, dst)` checks the value in variable `src` and puts the output in `dst`, or returns REJECT. */
class Generator {
  /** Values the source refers to as C[i] (sets, defaults' defs, union options). */
  readonly closed: unknown[] = [];
  private count = 0;

  name(prefix: string): string {
    return `${prefix}${this.count++}`;
  }

  ref(value: unknown): string {
    this.closed.push(value);
    return `C[${this.closed.length - 1}]`;
  }

  code(schema: unknown, src: string, dst: string): string {
    const zod = internals(schema);
    const def = zod.def;
    if (def.coerce) throw new Unsupported('coercion');
    switch (def.type) {
      case 'string':
        return `if (typeof ${src} !== 'string'${this.lengthFails(zod, src, true)}) return R;\n${dst} = ${src};\n`;
      case 'number':
        return `if (typeof ${src} !== 'number' || !Number.isFinite(${src})${this.numberFails(zod, src)}) return R;\n${dst} = ${src};\n`;
      case 'boolean':
        this.noChecks(zod);
        return `if (typeof ${src} !== 'boolean') return R;\n${dst} = ${src};\n`;
      case 'enum':
      case 'literal':
        this.noChecks(zod);
        return `if (!${this.ref(zod.values)}.has(${src})) return R;\n${dst} = ${src};\n`;
      case 'array': {
        const [i, x, y] = [this.name('i'), this.name('x'), this.name('y')];
        return (
          `if (!Array.isArray(${src})${this.lengthFails(zod, src, false)}) return R;\n` +
          `${dst} = new Array(${src}.length);\n` +
          `for (let ${i} = 0; ${i} < ${src}.length; ${i}++) {\nconst ${x} = ${src}[${i}];\nlet ${y};\n` +
          `${this.code(def.element, x, y)}${dst}[${i}] = ${y};\n}\n`
        );
      }
      case 'optional':
        this.noChecks(zod);
        // Only a defaulted inner schema substitutes a value for undefined (zod's optional).
        if (internals(def.innerType).optin === 'defaulted') return this.code(def.innerType, src, dst);
        return `if (${src} === undefined) ${dst} = undefined;\nelse {\n${this.code(def.innerType, src, dst)}}\n`;
      case 'nullable':
        this.noChecks(zod);
        return `if (${src} === null) ${dst} = null;\nelse {\n${this.code(def.innerType, src, dst)}}\n`;
      case 'default': {
        this.noChecks(zod);
        // zod reads defaultValue on each parse (a getter that may copy it): so do we.
        const d = this.ref(def);
        return (
          `if (${src} === undefined) ${dst} = ${d}.defaultValue;\n` +
          `else {\n${this.code(def.innerType, src, dst)}if (${dst} === undefined) ${dst} = ${d}.defaultValue;\n}\n`
        );
      }
      case 'union': {
        this.noChecks(zod);
        if (zod.traits.has('$ZodXor') || zod.traits.has('$ZodDiscriminatedUnion') || def.inclusive === false)
          throw new Unsupported('exclusive or discriminated union');
        // The first option that accepts wins, as in zod: each option is a function of its own.
        const options = (def.options as unknown[]).map((option) => this.ref(compile(option)));
        return (
          options.map((o, k) => `${k ? `if (${dst} === R) ` : ''}${dst} = ${o}(${src});\n`).join('') +
          `if (${dst} === R) return R;\n`
        );
      }
      case 'object':
        this.noChecks(zod);
        return this.objectCode(def, src, dst);
      default:
        throw new Unsupported(`schema type ${def.type}`);
    }
  }

  private noChecks(zod: Internals) {
    if (checksOf(zod).length) throw new Unsupported(`checks on ${zod.def.type}`);
  }

  private numberFails(zod: Internals, v: string): string {
    return checksOf(zod)
      .map((c) => {
        if (c.when !== undefined) throw new Unsupported('check with a custom condition');
        const bound = c.value;
        if (c.check === 'greater_than' && typeof bound === 'number')
          return ` || !(${v} ${c.inclusive ? '>=' : '>'} ${bound})`;
        if (c.check === 'less_than' && typeof bound === 'number')
          return ` || !(${v} ${c.inclusive ? '<=' : '<'} ${bound})`;
        if (c.check === 'number_format' && c.format === 'safeint') return ` || !Number.isSafeInteger(${v})`;
        throw new Unsupported(`number check ${c.check}`);
      })
      .join('');
  }

  // zod counts a string's length in code points (cp): only a string between min and 2·min
  // UTF-16 units can be short, only one over max units can be long. A length check's `when` is
  // taken to be zod's default (non-nullish with a length: always true here); zod sets it on every
  // length check, so a custom one cannot be told apart.
  private lengthFails(zod: Internals, v: string, text: boolean): string {
    return checksOf(zod)
      .map((c) => {
        if (c.check === 'min_length') {
          const min = c.minimum!;
          return text
            ? ` || ${v}.length < ${min} || (${v}.length < ${2 * min} && cp(${v}) < ${min})`
            : ` || ${v}.length < ${min}`;
        }
        if (c.check === 'max_length') {
          const max = c.maximum!;
          return text ? ` || (${v}.length > ${max} && cp(${v}) > ${max})` : ` || ${v}.length > ${max}`;
        }
        throw new Unsupported(`length check ${c.check}`);
      })
      .join('');
  }

  // Follows zod's object parse: keys read with `in` and `[]` (inherited ones too), a strict
  // object's unknown keys found by for…in. An absent key reads as undefined, which every
  // required schema above refuses and every optional one accepts, so zod's two absence rules
  // (a required key must be present; a failing optional key that is absent is ignored) hold.
  private objectCode(def: Internals['def'], src: string, dst: string): string {
    const shape = def.shape as Record<string, unknown>;
    if (Object.getOwnPropertySymbols(shape).length) throw new Unsupported('symbol keys');
    const keys = Object.keys(shape);
    const catchall = def.catchall === undefined ? undefined : internals(def.catchall).def.type;
    if (catchall !== undefined && catchall !== 'never') throw new Unsupported(`object catchall ${catchall}`);
    let out = `if (typeof ${src} !== 'object' || ${src} === null || Array.isArray(${src})) return R;\n${dst} = {};\n`;
    for (const key of keys) {
      if (key === '__proto__') continue;
      const field = internals(shape[key]);
      const k = JSON.stringify(key);
      const [x, y] = [this.name('x'), this.name('y')];
      out += `{\nconst ${x} = ${src}[${k}];\nlet ${y};\n${this.code(shape[key], x, y)}`;
      const keepUndefined = field.optin === 'defaulted' && field.optout !== 'optional';
      out += keepUndefined
        ? `${dst}[${k}] = ${y};\n}\n`
        : `if (${y} !== undefined || ${k} in ${src}) ${dst}[${k}] = ${y};\n}\n`;
    }
    if (catchall === 'never') {
      const key = this.name('k');
      out += `for (const ${key} in ${src}) if (!${this.ref(new Set(keys))}.has(${key})) return R;\n`;
    }
    return out;
  }
}

function compile(schema: unknown): Check {
  const gen = new Generator();
  const body = `return function check(v) {\nlet out;\n${gen.code(schema, 'v', 'out')}return out;\n};`;
  return new Function('C', 'R', 'cp', body)(gen.closed, REJECT, codePoints) as Check;
}

const COMPILED = new WeakMap<object, Check | null>();

function compiled(schema: z.ZodType): Check | null {
  let check = COMPILED.get(schema);
  if (check === undefined) {
    try {
      check = compile(schema);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      check = null;
    }
    COMPILED.set(schema, check);
  }
  return check;
}

/** Whether the schema is checked without zod (a test asserts it for every tool and answer schema). */
export function isPrecompiled(schema: z.ZodType): boolean {
  return compiled(schema) !== null;
}

/** What `schema.safeParse(value)` gives, without zod when the value is valid. */
export function safeParseFast<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const check = compiled(schema);
  if (check) {
    const data = check(value);
    if (data !== REJECT) return { success: true, data: data as z.output<S> };
  }
  return schema.safeParse(value);
}
