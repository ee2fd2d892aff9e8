// Forms from JSON Schema (the tools' argument schemas and the envs' answer schemas).
// Values are kept as text by dotted path ("filters.color"); buildArgs (schema-build.ts)
// turns them into typed arguments and reports precise per-field errors.
//
// Shapes and where their values live:
//   scalar, enum, boolean          values[path] = the text
//   list of scalars                values[path] = "a, b, c" (comma or newline separated)
//   object                         its fields at `${path}.${key}`
//   list of objects / unions       values[`${path}#items`] = count; item i at `${path}.${i}`
//   union told apart by a constant property (anyOf of objects with e.g. env: const "PD")
//                                  the choice at `${path}.${discriminator}`; the chosen option's fields beside it
//   other unions (number | string) values[path] = the text; optional choice at `${path}#type` (else the
//                                  first option the text parses as: number before string)

import type { FieldKind, FieldSpec, FormValues, ItemKind, JsonSchema, UnionOption } from './schema-types';

export type { FieldKind, FieldSpec, FormValues, ItemKind, JsonSchema, UnionOption } from './schema-types';

const BIG = 1e15;

const altsOf = (s: JsonSchema) => s.anyOf ?? s.oneOf;
const isNull = (s: JsonSchema) => s.type === 'null';

/** Drops `null` alternatives (nullable fields); a union that keeps one alternative becomes that alternative. */
export function unwrap(s: JsonSchema): JsonSchema {
  const alts = altsOf(s);
  if (alts) {
    const nonNull = alts.filter((a) => !isNull(a));
    if (nonNull.length === 1)
      return {
        ...unwrap(nonNull[0]),
        description: s.description ?? nonNull[0].description,
        default: s.default ?? nonNull[0].default,
      };
    if (nonNull.length !== alts.length) return { ...s, anyOf: nonNull, oneOf: undefined };
    return s;
  }
  if (Array.isArray(s.type)) {
    const t = s.type.filter((x) => x !== 'null');
    if (t.length === 1) return { ...s, type: t[0] };
    // type: ["number", "string"] is the union number | string
    const { type: _type, ...rest } = s;
    return { ...rest, anyOf: t.map((type) => ({ type })) };
  }
  return s;
}

function kindOf(s: JsonSchema): FieldKind {
  if ((altsOf(s)?.length ?? 0) > 1) return 'union';
  if (s.enum && s.enum.length > 0 && s.enum.every((v) => typeof v === 'string')) return 'enum';
  if (typeof s.const === 'string') return 'enum';
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

const enumValuesOf = (s: JsonSchema): string[] => (s.enum ? (s.enum as string[]).slice() : [s.const as string]);

function itemKindOf(items: JsonSchema | undefined): ItemKind {
  const it = items ? unwrap(items) : {};
  const k = kindOf(it);
  if (k === 'union') return 'union';
  if (k === 'object') return 'object';
  if (k === 'enum' || k === 'string') return 'string';
  if (k === 'number' || k === 'integer') return k;
  return 'json';
}

/** The constant string of a property schema ({const: "PD"} or a one-value enum), if it is one. */
function constString(s: JsonSchema | undefined): string | undefined {
  if (!s) return undefined;
  if (typeof s.const === 'string') return s.const;
  if (s.enum?.length === 1 && typeof s.enum[0] === 'string') return s.enum[0];
  return undefined;
}

/** A property every object alternative fixes to a different constant (e.g. env). */
function discriminatorOf(alts: JsonSchema[]): string | undefined {
  if (!alts.every((a) => a.type === 'object' && a.properties)) return undefined;
  const first = alts[0].properties!;
  return Object.keys(first).find((key) => {
    const values = alts.map((a) => constString(a.properties![key]));
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
}

function unionOptions(s: JsonSchema, path: string): { options: UnionOption[]; discriminator?: string } {
  const alts = altsOf(s)!.map(unwrap);
  const discriminator = discriminatorOf(alts);
  const used = new Set<string>();
  const options = alts.map((a, i): UnionOption => {
    const kind = kindOf(a);
    let label =
      discriminator !== undefined
        ? constString(a.properties![discriminator])!
        : kind === 'enum' || kind === 'string'
          ? 'string'
          : kind === 'object' || kind === 'json' || kind === 'union'
            ? `option ${i + 1}`
            : kind;
    if (used.has(label)) label = `${label} ${i + 1}`;
    used.add(label);
    if (kind === 'object') return { label, kind, children: fieldsOf(a, path).filter((c) => c.key !== discriminator) };
    if (kind === 'enum') return { label, kind, enumValues: enumValuesOf(a) };
    return { label, kind: kind === 'union' || kind === 'array' ? 'json' : kind };
  });
  return { options, discriminator };
}

/** The field for one property (or one list item) at `path`. */
export function fieldFor(key: string, path: string, raw: JsonSchema, required: boolean): FieldSpec {
  const s = unwrap(raw);
  const kind = kindOf(s);
  const min = s.minimum ?? s.exclusiveMinimum;
  const field: FieldSpec = {
    path,
    key,
    kind,
    // a field with a default may be left out
    required: required && s.default === undefined,
    description: s.description ?? raw.description,
    default: s.default,
    min: min !== undefined && Math.abs(min) < BIG ? min : undefined,
    max: s.maximum !== undefined && Math.abs(s.maximum) < BIG ? s.maximum : undefined,
  };
  if (kind === 'enum') field.enumValues = enumValuesOf(s);
  if (kind === 'object') field.children = fieldsOf(s, path);
  if (kind === 'union') Object.assign(field, unionOptions(s, path));
  if (kind === 'array') {
    field.itemKind = itemKindOf(s.items);
    if (s.maxItems !== undefined) field.maxItems = s.maxItems;
    if (field.itemKind === 'object' || field.itemKind === 'union') field.itemSchema = s.items;
  }
  return field;
}

export function fieldsOf(schema: JsonSchema | undefined, prefix = ''): FieldSpec[] {
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([key, raw]) =>
    fieldFor(key, prefix ? `${prefix}.${key}` : key, raw, required.has(key)),
  );
}

/** Lists of objects or unions: the field of item i (0-based), at `${path}.${i}`. */
export function itemField(f: FieldSpec, i: number): FieldSpec {
  return fieldFor(`${f.key}[${i + 1}]`, `${f.path}.${i}`, f.itemSchema ?? {}, true);
}

export const hasItems = (f: FieldSpec) => f.kind === 'array' && (f.itemKind === 'object' || f.itemKind === 'union');

/** Where a union's choice is stored. */
export function choicePath(f: FieldSpec): string {
  return f.discriminator ? `${f.path}.${f.discriminator}` : `${f.path}#type`;
}

/** The union option chosen in the form, if any. */
export function chosenOption(f: FieldSpec, values: FormValues): UnionOption | undefined {
  const choice = values[choicePath(f)] ?? '';
  return f.options?.find((o) => o.label === choice);
}

/** How the form describes a field's type ("list of string", "number or string", …). */
export function typeText(f: FieldSpec): string {
  if (f.kind === 'array') {
    if (f.itemKind === 'union') {
      const labels = fieldFor('', '', f.itemSchema ?? {}, true).options?.map((o) => o.label) ?? [];
      return `list of ${labels.join(' | ')}`;
    }
    return `list of ${f.itemKind === 'json' ? 'JSON values' : `${f.itemKind}s`}`;
  }
  if (f.kind === 'union')
    return f.discriminator
      ? `one of ${f.options!.map((o) => o.label).join(' | ')}`
      : f.options!.map((o) => o.label).join(' or ');
  return f.kind;
}
