// Parsing an agent's turn (SPEC §1). Anything that is not a usable action gets
// one precise sentence saying what is wrong, because that sentence is what a
// researcher reads when a rollout dies on turn 1.
//
// A structured action is judged exactly as its JSON text would be: it must be plain
// JSON data (no cycles, NaN, functions, class instances), and both forms pass the same
// size, depth and key checks, so an episode replays identically from its stored text.
// Nothing here throws, whatever it is given (docs/engine.md, "Hardening").

import type { Action, ToolCall } from './types';

export const MAX_ACTION_CHARS = 64 * 1024;
/** Nesting limit of an action (a real one is about 6 deep: action → tool_calls → call → args → filters). */
export const MAX_ACTION_DEPTH = 32;
/** Keys that could reach an object's prototype if some code copied them; refused anywhere in an action. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** How much of an unusable action's text the event log keeps. */
const RAW_KEEP = 4096;

export type ParsedAction = { ok: true; action: Action; raw: string } | { ok: false; error: string; raw: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isPlainProto = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** A bounded copy of text for the event log. */
function keep(text: string): string {
  return text.length <= RAW_KEEP ? text : `${text.slice(0, RAW_KEEP)}… (${text.length} characters in all)`;
}

const pathText = (path: readonly (string | number)[]) =>
  path.length === 0
    ? 'the top level'
    : path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/**
 * Why this value is not plain JSON data within the limits, or null when it is. Recursion is safe:
 * it stops at MAX_ACTION_DEPTH, and the character budget stops it on huge lists and strings.
 */
export function jsonDataError(value: unknown): string | null {
  let budget = MAX_ACTION_CHARS;
  const ancestors: object[] = [];
  // one path, pushed and popped on the way (no list per value: actions are walked every step)
  const path: (string | number)[] = [];
  const visit = (v: unknown): string | null => {
    switch (typeof v) {
      case 'string':
        budget -= v.length + 2;
        break;
      case 'number':
        if (!Number.isFinite(v))
          return `action contains ${String(v)} at ${pathText(path)}; JSON numbers must be finite`;
        budget -= 1;
        break;
      case 'boolean':
      case 'undefined': // JSON drops it (or writes null in a list), and so does the stored text
        budget -= 1;
        break;
      case 'object': {
        if (v === null) {
          budget -= 4;
          break;
        }
        if (ancestors.includes(v))
          return `action contains a cycle: ${pathText(path)} refers back to ${pathText(path.slice(0, ancestors.indexOf(v)))}`;
        if (ancestors.length >= MAX_ACTION_DEPTH)
          return `action is nested more than ${MAX_ACTION_DEPTH} levels deep (at ${pathText(path.slice(0, 8))}…)`;
        const proto = Object.getPrototypeOf(v);
        if (!Array.isArray(v) && proto !== Object.prototype && proto !== null)
          return `action contains a ${proto?.constructor?.name ?? 'non-plain'} object at ${pathText(path)}; an action holds only JSON objects, lists, strings, numbers, booleans and null`;
        ancestors.push(v);
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length && budget >= 0; i++) {
            budget -= 1;
            path.push(i);
            const e = visit(v[i]);
            if (e) return e;
            path.pop();
          }
        } else {
          for (const key of Object.keys(v)) {
            if (RESERVED_KEYS.has(key))
              return `action uses the reserved key "${key}" at ${pathText(path)}; keys named __proto__, constructor or prototype are refused`;
            budget -= key.length + 4;
            if (budget < 0) break;
            path.push(key);
            const e = visit((v as Record<string, unknown>)[key]);
            if (e) return e;
            path.pop();
          }
        }
        ancestors.pop();
        budget -= 2;
        break;
      }
      default:
        return `action contains a ${typeof v} at ${pathText(path)}; an action holds only JSON values`;
    }
    return budget < 0
      ? `action is larger than ${MAX_ACTION_CHARS} characters as JSON; the limit is ${MAX_ACTION_CHARS}`
      : null;
  };
  try {
    return visit(value);
  } catch (e) {
    // a getter or a Proxy that throws
    return `action could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** The JSON text of a structured action, or why it has none. Never throws. */
function toText(input: unknown): { text: string } | { error: string; raw: string } {
  const error = jsonDataError(input);
  if (error) return { error, raw: `[unusable ${kindOf(input)} action: not stored as text]` };
  const text = JSON.stringify(input);
  // a top-level undefined has no JSON text; it is "not an object" below
  return text === undefined ? { error: 'action must be a JSON object, got undefined', raw: '' } : { text };
}

// ---------- structured actions without a JSON round trip ----------
// A plain-object action is copied by one walk that gives what JSON.parse(JSON.stringify(x)) gives
// (undefined object fields dropped, undefined list entries null, -0 as 0, plain prototypes) and
// counts jsonDataError's budget over that copy; its exact JSON length is measured when it could
// pass the limit. So the limits and messages are those of the text path. The text itself is only built when something refers to
// it (a failure, an answer error). The round trip cost ~35 µs per step inside an episode (issue 13).

/**
 * jsonDataError's budget use of the copy made by jsonCopy (`estimate`), and jsonDataError's own budget
 * use over the input (`data`: it also counts fields that are undefined). The copy's exact JSON length
 * is at most EXACT_PER_ESTIMATE times its estimate (below), so it is only measured when that bound
 * passes the limit (issue 13, eleventh round: counting it per string and key cost ~2 % of a step).
 */
const sizes = { estimate: 0, data: 0 };

/**
 * The most JSON characters one unit of the estimate can stand for: a number counts 1 and prints at
 * most 25 characters (-0.0000012345678901234567); a string or key character at most 6 (\u0001);
 * true/false 1 for 4–5; null, brackets, colons and commas no more than they count. So the exact
 * length is at most 25 × the estimate.
 */
const EXACT_PER_ESTIMATE = 25;

/** Thrown by jsonCopy where jsonDataError would give an error: the text path words it. */
const NOT_JSON_DATA = new Error('not plain JSON data within the limits');

/**
 * The value JSON.parse(JSON.stringify(v)) gives (undefined → undefined), in the same walk as
 * jsonDataError's checks (one walk instead of two, issue 13, ninth round): it throws NOT_JSON_DATA
 * exactly where jsonDataError gives an error (a non-finite number, a non-plain object, a reserved
 * key, a function or symbol, more than MAX_ACTION_DEPTH levels — which a cycle reaches — or
 * more than its budget).
 */
function jsonCopy(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      sizes.estimate += v.length + 2;
      sizes.data += v.length + 2;
      return v;
    case 'number':
      if (!Number.isFinite(v)) throw NOT_JSON_DATA;
      sizes.estimate += 1;
      sizes.data += 1;
      return v === 0 ? 0 : v;
    case 'boolean':
      sizes.estimate += 1;
      sizes.data += 1;
      return v;
    case 'undefined':
      sizes.data += 1;
      return undefined;
    case 'object': {
      if (v === null) {
        sizes.estimate += 4;
        sizes.data += 4;
        return null;
      }
      if (depth >= MAX_ACTION_DEPTH || sizes.data > MAX_ACTION_CHARS) throw NOT_JSON_DATA;
      sizes.estimate += 2;
      sizes.data += 2;
      if (Array.isArray(v)) {
        // JSON.stringify would call a list's own toJSON: the text path decides
        if ((v as { toJSON?: unknown }).toJSON !== undefined) throw new Error('list with toJSON');
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          if ((sizes.data += 1) > MAX_ACTION_CHARS) throw NOT_JSON_DATA; // stop early on a huge list
          const e = jsonCopy(v[i], depth + 1);
          if (e === undefined) sizes.estimate += 4;
          out[i] = e === undefined ? null : e;
          sizes.estimate += 1;
        }
        return out;
      }
      if (!isPlainProto(v)) throw NOT_JSON_DATA;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        if (RESERVED_KEYS.has(key)) throw NOT_JSON_DATA;
        if ((sizes.data += key.length + 4) > MAX_ACTION_CHARS) throw NOT_JSON_DATA;
        const e = jsonCopy((v as Record<string, unknown>)[key], depth + 1);
        if (e === undefined) continue;
        out[key] = e;
        sizes.estimate += key.length + 4;
      }
      return out;
    }
    default:
      throw NOT_JSON_DATA;
  }
}

/** A structured action's parse: its JSON text is built on first read (most steps never need it). */
class ParsedObjectAction {
  readonly ok = true;
  private text: string | undefined;
  constructor(
    readonly action: Action,
    // the copy has the input's JSON text, and unlike the input nobody else holds it
    private readonly value: unknown,
  ) {}
  get raw(): string {
    return (this.text ??= JSON.stringify(this.value));
  }
}

/**
 * parseAction of a plain object: the same result (and the same raw text, built on demand) as
 * parsing its JSON text; null (over the size budget) or a throw (not plain JSON data) when the
 * text path must decide.
 */
function parseObjectAction(input: object): ParsedAction | null {
  sizes.estimate = 0;
  sizes.data = 0;
  // Throws NOT_JSON_DATA (or whatever a getter throws) for what is not plain JSON data:
  // parseAction catches it and takes the text path, which words the refusal.
  const value = jsonCopy(input, 0) as Record<string, unknown>;
  if (sizes.data > MAX_ACTION_CHARS) return null; // jsonDataError's budget: the text path words it
  // the copy is plain JSON data: its text's length is the exact length (only near the limit)
  const exact = sizes.estimate * EXACT_PER_ESTIMATE > MAX_ACTION_CHARS ? JSON.stringify(value).length : 0;
  const error =
    exact > MAX_ACTION_CHARS
      ? `action is ${exact} characters; the limit is ${MAX_ACTION_CHARS}`
      : sizes.estimate > MAX_ACTION_CHARS
        ? `action is larger than ${MAX_ACTION_CHARS} characters as JSON; the limit is ${MAX_ACTION_CHARS}`
        : actionShapeError(value);
  if (error) return { ok: false, error, raw: keep(JSON.stringify(value)) };
  return new ParsedObjectAction(actionOf(value), value);
}

/** The action of a parsed object that actionShapeError accepted. */
const actionOf = (value: Record<string, unknown>): Action => ({
  assistant_message: value.assistant_message as string,
  tool_calls: (value.tool_calls ?? []) as ToolCall[],
  answer: (value.answer ?? null) as Action['answer'],
});

/** What is wrong with a parsed action object's fields, or null. */
function actionShapeError(value: Record<string, unknown>): string | null {
  const message = value.assistant_message;
  if (message === undefined) return 'action is missing "assistant_message"';
  if (typeof message !== 'string') return `"assistant_message" must be a string, got ${kindOf(message)}`;
  if (message.trim() === '') return '"assistant_message" must not be empty';

  const calls = value.tool_calls ?? [];
  if (!Array.isArray(calls)) return `"tool_calls" must be a list, got ${kindOf(calls)}`;

  const answer = value.answer ?? null;
  if (answer !== null) {
    if (!isPlainObject(answer)) return `"answer" must be an object or null, got ${kindOf(answer)}`;
    if (typeof answer.env !== 'string') return '"answer.env" must be the environment id (a string)';
    if (typeof answer.done !== 'boolean') return '"answer.done" must be true or false';
  }
  return null;
}

export function parseAction(input: unknown): ParsedAction {
  if (isPlainObject(input) && isPlainProto(input)) {
    try {
      const parsed = parseObjectAction(input);
      if (parsed) return parsed;
    } catch {
      // a getter or a Proxy that throws: the text path words it
    }
  }
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const converted = toText(input);
    if ('error' in converted) return { ok: false, error: converted.error, raw: converted.raw };
    text = converted.text;
  }
  const fail = (error: string): ParsedAction => ({ ok: false, error, raw: keep(text) });
  if (text.length > MAX_ACTION_CHARS)
    return fail(`action is ${text.length} characters; the limit is ${MAX_ACTION_CHARS}`);
  if (text.trim() === '') return fail('action is empty; expected a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(`action is not valid JSON: ${(e as Error).message}`);
  }
  const dataError = jsonDataError(value);
  if (dataError) return fail(dataError);
  if (!isPlainObject(value)) return fail(`action must be a JSON object, got ${kindOf(value)}`);
  const error = actionShapeError(value);
  if (error) return fail(error);
  return { ok: true, raw: text, action: actionOf(value) };
}

/** Native function-calling names use "_" for "." (catalog_search → catalog.search). */
export function normaliseToolName(name: string, known: (n: string) => boolean): string {
  if (known(name)) return name;
  const dotted = name.replace('_', '.');
  return known(dotted) ? dotted : name;
}
