// The types of the forms built from JSON Schema (schema-form.ts builds them, schema-build.ts
// and form-values.ts read them). A leaf module: it imports no form code, so none of those
// three files needs to import another at run time just for a type.

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
  maxItems?: number;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: unknown;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'array' | 'union' | 'json';
export type ItemKind = 'string' | 'number' | 'integer' | 'object' | 'union' | 'json';

/** One option of a union field. */
export interface UnionOption {
  /** What the person picks: the discriminator's value (e.g. "PD") or the type ("number"). */
  label: string;
  kind: Exclude<FieldKind, 'union' | 'array'>;
  /** Object options: their fields (the discriminator left out). */
  children?: FieldSpec[];
  enumValues?: string[];
}

export interface FieldSpec {
  path: string;
  key: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  enumValues?: string[];
  itemKind?: ItemKind;
  default?: unknown;
  min?: number;
  max?: number;
  children?: FieldSpec[];
  /** Lists of objects or unions: the item's schema (item i is itemField(f, i)). */
  itemSchema?: JsonSchema;
  maxItems?: number;
  /** Unions (anyOf / oneOf). */
  options?: UnionOption[];
  /** Object unions told apart by a constant property: its name (e.g. "env"). */
  discriminator?: string;
}

export type { FormValues } from '@/lib/form-values';
