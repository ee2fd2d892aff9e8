// An action's answer checked against its env's answer schema (with `env` and `done`).

import { z } from 'zod';
import type { Answer, EnvDefinition } from './envs/types';

// The answer schema with env and done, built once per env: zod compiles a schema on its first
// parse, and building it per answer cost 0.3–0.5 ms (issue 13).
const FULL_ANSWER_SCHEMAS = new WeakMap<EnvDefinition<unknown>, z.ZodObject>();

export function fullAnswerSchema(env: EnvDefinition<unknown>): z.ZodObject {
  let schema = FULL_ANSWER_SCHEMAS.get(env);
  if (!schema)
    FULL_ANSWER_SCHEMAS.set(env, (schema = env.answerSchema.extend({ env: z.literal(env.id), done: z.boolean() })));
  return schema;
}

/** The parsed answer, or the text of what is wrong with it. */
export function checkAnswer(env: EnvDefinition<unknown>, answer: unknown): Answer | string {
  const fast = env.parseAnswer?.(answer);
  if (fast) return fast;
  const parsed = fullAnswerSchema(env).safeParse(answer);
  if (parsed.success) return parsed.data as Answer;
  const issues = parsed.error.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown answer field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')} for ${env.id}`
      : `answer.${i.path.join('.')}: ${i.path[0] === 'env' ? `must be "${env.id}"` : i.message}`,
  );
  return `invalid answer: ${issues.join('; ')}`;
}
