// The parts of a JSON Schema (as zod's toJSONSchema writes it) that the built-in agents read
// when they fill in answers and tool arguments from an env's schemas.

export interface JsonSchema {
  type?: string;
  const?: unknown;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
}

/** Reads a JSON Schema object (typed loosely where it is passed around) as a JsonSchema. */
export const asJsonSchema = (schema: Record<string, unknown>): JsonSchema => schema as JsonSchema;
