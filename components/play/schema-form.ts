// Forms from JSON Schema (the tools' argument schemas and the envs' answer schemas).
// Values are kept as text by dotted path ("filters.color"); buildArgs turns them into
// typed arguments and reports precise per-field errors.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: unknown;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'array' | 'json';

export interface FieldSpec {
  path: string;
  key: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  enumValues?: string[];
  itemKind?: 'string' | 'number' | 'integer' | 'json';
  default?: unknown;
  min?: number;
  max?: number;
  children?: FieldSpec[];
}

export type FormValues = Record<string, string>;

const BIG = 1e15;

/** Drops `null` alternatives (nullable fields) and returns the remaining schema. */
function unwrap(s: JsonSchema): JsonSchema {
  const alts = s.anyOf ?? s.oneOf;
  if (alts) {
    const nonNull = alts.filter((a) => a.type !== 'null');
    if (nonNull.length === 1) return { ...nonNull[0], description: s.description ?? nonNull[0].description, default: s.default ?? nonNull[0].default };
  }
  if (Array.isArray(s.type)) {
    const t = s.type.filter((x) => x !== 'null');
    if (t.length === 1) return { ...s, type: t[0] };
  }
  return s;
}

function kindOf(s: JsonSchema): FieldKind {
  if (s.enum && s.enum.every((v) => typeof v === 'string')) return 'enum';
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'object':
      return s.properties ? 'object' : 'json';
    case 'array':
      return 'array';
    default:
      return 'json';
  }
}

export function fieldsOf(schema: JsonSchema | undefined, prefix = ''): FieldSpec[] {
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([key, raw]) => {
    const s = unwrap(raw);
    const kind = kindOf(s);
    const path = prefix ? `${prefix}.${key}` : key;
    const min = s.minimum ?? s.exclusiveMinimum;
    const field: FieldSpec = {
      path,
      key,
      kind,
      // a field with a default may be left out
      required: required.has(key) && s.default === undefined,
      description: s.description,
      default: s.default,
      min: min !== undefined && Math.abs(min) < BIG ? min : undefined,
      max: s.maximum !== undefined && Math.abs(s.maximum) < BIG ? s.maximum : undefined,
    };
    if (kind === 'enum') field.enumValues = (s.enum as string[]).slice();
    if (kind === 'object') field.children = fieldsOf(s, path);
    if (kind === 'array') {
      const it = s.items ? unwrap(s.items) : {};
      field.itemKind = it.type === 'string' ? 'string' : it.type === 'number' ? 'number' : it.type === 'integer' ? 'integer' : 'json';
    }
    return field;
  });
}

function parseNumber(text: string, integer: boolean, f: FieldSpec): number | string {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) return `${f.key} must be a number`;
  if (integer && !Number.isInteger(n)) return `${f.key} must be a whole number`;
  if (f.min !== undefined && n < f.min) return `${f.key} must be ≥ ${f.min}`;
  if (f.max !== undefined && n > f.max) return `${f.key} must be ≤ ${f.max}`;
  return n;
}

function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function buildArgs(fields: FieldSpec[], values: FormValues): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (f.kind === 'object') {
      const inner = buildArgs(f.children ?? [], values);
      Object.assign(errors, inner.errors);
      if (Object.keys(inner.args).length > 0 || f.required) args[f.key] = inner.args;
      continue;
    }
    const text = values[f.path] ?? '';
    if (text.trim() === '') {
      if (f.required) errors[f.path] = `${f.key} is required`;
      continue;
    }
    switch (f.kind) {
      case 'string':
      case 'enum':
        args[f.key] = text;
        break;
      case 'number':
      case 'integer': {
        const n = parseNumber(text, f.kind === 'integer', f);
        if (typeof n === 'string') errors[f.path] = n;
        else args[f.key] = n;
        break;
      }
      case 'boolean':
        args[f.key] = text === 'true';
        break;
      case 'array': {
        if (f.itemKind === 'json') {
          try {
            const v = JSON.parse(text);
            if (!Array.isArray(v)) errors[f.path] = `${f.key} must be a JSON list`;
            else args[f.key] = v;
          } catch {
            errors[f.path] = `${f.key} must be a JSON list`;
          }
          break;
        }
        const items = splitList(text);
        if (f.itemKind === 'string') {
          args[f.key] = items;
        } else {
          const nums = items.map((t) => parseNumber(t, f.itemKind === 'integer', { ...f, min: undefined, max: undefined }));
          const bad = nums.find((n) => typeof n === 'string');
          if (bad !== undefined) errors[f.path] = `${f.key}: every item must be a number`;
          else args[f.key] = nums;
        }
        break;
      }
      case 'json':
        try {
          args[f.key] = JSON.parse(text);
        } catch {
          errors[f.path] = `${f.key} must be valid JSON`;
        }
        break;
    }
  }
  return { args, errors };
}

/** Form text for given argument values (for "Add to cart…" style prefills). */
export function valuesFromArgs(args: Record<string, unknown>, prefix = ''): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(args)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) out[path] = v.every((x) => typeof x !== 'object') ? v.join(', ') : JSON.stringify(v);
    else if (typeof v === 'object') Object.assign(out, valuesFromArgs(v as Record<string, unknown>, path));
    else out[path] = String(v);
  }
  return out;
}
