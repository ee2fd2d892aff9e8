// The empty agent: answers on its first turn with nothing — every required
// answer field at its emptiest value (no ids, empty text, zero) and done: true.
// It must score at most −0.5 on every env and d: an answer that says nothing
// earns nothing.

import { listEnvs } from '../envs/registry';
import type { Action } from '../types';
import { asJsonSchema, type JsonSchema } from './json-schema';
import type { Agent } from './types';

type Schema = JsonSchema;

/**
 * The emptiest value of a JSON Schema: its default, null when nullable, [], '', 0, false, or the first
 * enum value. Where the schema demands non-empty text (an order id), '' fails the answer check and the
 * episode ends as format_invalid (−1): there is no valid way to say nothing there.
 */
export function emptyValue(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) {
    // nothing is null, else empty text (a number such as 0 would be a guess, and some answers are 0)
    const nothing = branches.find((b) => b.type === 'null') ?? branches.find((b) => b.type === 'string') ?? branches[0];
    return emptyValue(nothing);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) out[name] = emptyValue(schema.properties?.[name] ?? {});
      return out;
    }
    case 'array':
      return [];
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

export function emptyAnswer(envId: string): NonNullable<Action['answer']> {
  const schema = asJsonSchema(listEnvs().find((e) => e.id === envId)?.answerSchema ?? { type: 'object' });
  return { ...(emptyValue(schema) as Record<string, unknown>), env: envId, done: true };
}

export const emptyAgent: Agent = {
  name: 'empty',
  act: (observation) => ({ assistant_message: 'Done.', tool_calls: [], answer: emptyAnswer(observation.envId) }),
};
