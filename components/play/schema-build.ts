// Form text → typed arguments (with per-field errors), and arguments → form text (prefills).
import { itemCount, listItems } from './form-values';
import { chosenOption, hasItems, itemField } from './schema-form';
import type { FieldSpec, FormValues, UnionOption } from './schema-types';

type Errors = Record<string, string>;
type Built = { has: false } | { has: true; value: unknown };
const NONE: Built = { has: false };

function parseNumber(text: string, integer: boolean, f: Pick<FieldSpec, 'key' | 'min' | 'max'>): number | string {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n)) return `${f.key} must be a number`;
  if (integer && !Number.isInteger(n)) return `${f.key} must be a whole number`;
  if (f.min !== undefined && n < f.min) return `${f.key} must be ≥ ${f.min}`;
  if (f.max !== undefined && n > f.max) return `${f.key} must be ≤ ${f.max}`;
  return n;
}

/** A scalar (string, enum, number, integer, boolean, json, list of scalars) from its text. */
function buildScalar(f: FieldSpec, text: string, errors: Errors): Built {
  switch (f.kind) {
    case 'string':
      return { has: true, value: text };
    case 'enum':
      if (f.enumValues && !f.enumValues.includes(text)) {
        errors[f.path] = `${f.key} must be one of ${f.enumValues.join(', ')}`;
        return NONE;
      }
      return { has: true, value: text };
    case 'number':
    case 'integer': {
      const n = parseNumber(text, f.kind === 'integer', f);
      if (typeof n === 'string') {
        errors[f.path] = n;
        return NONE;
      }
      return { has: true, value: n };
    }
    case 'boolean':
      return { has: true, value: text === 'true' };
    case 'array': {
      if (f.itemKind === 'json') {
        try {
          const v = JSON.parse(text);
          if (Array.isArray(v)) return { has: true, value: v };
        } catch {
          /* reported below */
        }
        errors[f.path] = `${f.key} must be a JSON list`;
        return NONE;
      }
      const items = listItems(text);
      if (f.maxItems !== undefined && items.length > f.maxItems) {
        errors[f.path] = `${f.key}: at most ${f.maxItems} items`;
        return NONE;
      }
      if (f.itemKind === 'string') return { has: true, value: items };
      const nums = items.map((t) => parseNumber(t, f.itemKind === 'integer', { key: f.key }));
      if (nums.some((n) => typeof n === 'string')) {
        errors[f.path] = `${f.key}: every item must be a number`;
        return NONE;
      }
      return { has: true, value: nums };
    }
    default:
      try {
        return { has: true, value: JSON.parse(text) };
      } catch {
        errors[f.path] = `${f.key} must be valid JSON`;
        return NONE;
      }
  }
}

/** The first scalar option the text reads as: number/integer, then boolean, then string/enum. */
function autoOption(options: UnionOption[], text: string): UnionOption | undefined {
  const t = text.trim();
  const rank = (o: UnionOption) => ['integer', 'number', 'boolean', 'enum', 'string', 'json'].indexOf(o.kind);
  return [...options]
    .filter((o) => o.kind !== 'object')
    .sort((a, b) => rank(a) - rank(b))
    .find((o) => {
      if (o.kind === 'integer') return /^-?\d+$/.test(t);
      if (o.kind === 'number') return t !== '' && Number.isFinite(Number(t));
      if (o.kind === 'boolean') return t === 'true' || t === 'false';
      if (o.kind === 'enum') return o.enumValues?.includes(text) ?? false;
      if (o.kind === 'json') {
        try {
          JSON.parse(text);
          return true;
        } catch {
          return false;
        }
      }
      return true;
    });
}

/** The type a scalar union's text will be sent as when no type is picked (for the form's hint). */
export function autoOptionLabel(f: FieldSpec, text: string): string | null {
  return text.trim() === '' ? null : (autoOption(f.options ?? [], text)?.label ?? null);
}

function buildUnion(f: FieldSpec, values: FormValues, errors: Errors): Built {
  const chosen = chosenOption(f, values);
  if (!chosen && f.discriminator) {
    if (f.required) errors[f.path] = `${f.key}: choose its ${f.discriminator}`;
    return NONE;
  }
  if (chosen?.kind === 'object') {
    const obj = buildObject(chosen.children ?? [], values, errors);
    if (f.discriminator) obj[f.discriminator] = chosen.label;
    return { has: true, value: obj };
  }
  const text = values[f.path] ?? '';
  if (text.trim() === '') {
    if (f.required) errors[f.path] = `${f.key} is required`;
    return NONE;
  }
  const option = chosen ?? autoOption(f.options ?? [], text);
  if (!option) {
    errors[f.path] = `${f.key} must be ${f.options!.map((o) => o.label).join(' or ')}`;
    return NONE;
  }
  return buildScalar({ ...f, kind: option.kind, enumValues: option.enumValues }, text, errors);
}

function buildItems(f: FieldSpec, values: FormValues, errors: Errors): Built {
  const n = itemCount(values, f.path);
  // A required list may be empty (e.g. JOURNEY's final answer after every sub-task was answered).
  if (n === 0) return f.required ? { has: true, value: [] } : NONE;
  if (f.maxItems !== undefined && n > f.maxItems) errors[f.path] = `${f.key}: at most ${f.maxItems} items`;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const b = buildField(itemField(f, i), values, errors);
    if (b.has) out.push(b.value);
  }
  return { has: true, value: out };
}

function buildField(f: FieldSpec, values: FormValues, errors: Errors): Built {
  if (f.kind === 'object') {
    const inner = buildObject(f.children ?? [], values, errors);
    return Object.keys(inner).length > 0 || f.required ? { has: true, value: inner } : NONE;
  }
  if (f.kind === 'union') return buildUnion(f, values, errors);
  if (hasItems(f)) return buildItems(f, values, errors);
  const text = values[f.path] ?? '';
  if (text.trim() === '' || (f.kind === 'array' && f.itemKind !== 'json' && listItems(text).length === 0)) {
    // a required constant (a one-value enum) fills itself in
    if (f.required && f.kind === 'enum' && f.enumValues?.length === 1) return { has: true, value: f.enumValues[0] };
    if (f.required) errors[f.path] = f.kind === 'array' ? `${f.key} needs at least one item` : `${f.key} is required`;
    return NONE;
  }
  return buildScalar(f, text, errors);
}

function buildObject(fields: FieldSpec[], values: FormValues, errors: Errors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const b = buildField(f, values, errors);
    if (b.has) out[f.key] = b.value;
  }
  return out;
}

export function buildArgs(
  fields: FieldSpec[],
  values: FormValues,
): { args: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Errors = {};
  const args = buildObject(fields, values, errors);
  return { args, errors };
}

/**
 * Form text for given argument values (prefills such as "Add to cart…", and tests). Lists of
 * objects become items; a discriminated union's choice is its discriminator value, which is an
 * ordinary key of the object, so it round-trips.
 */
export function valuesFromArgs(args: Record<string, unknown>, prefix = ''): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(args)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.every((x) => typeof x !== 'object' || x === null)) out[path] = v.join(', ');
      else if (v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x))) {
        out[`${path}#items`] = String(v.length);
        v.forEach((item, i) => Object.assign(out, valuesFromArgs(item as Record<string, unknown>, `${path}.${i}`)));
      } else out[path] = JSON.stringify(v);
    } else if (typeof v === 'object') Object.assign(out, valuesFromArgs(v as Record<string, unknown>, path));
    else out[path] = String(v);
  }
  return out;
}
