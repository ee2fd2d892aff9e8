// Input schemas of the episode service: every value from outside is parsed here first.
import { z } from 'zod';
import { AXIS_NAMES, AXIS_RANGES, D_RANGE, type AxisName } from '@/server/engine/difficulty';
import type { Action } from '@/server/engine/types';
import { actionValueProblem } from '@/server/lib/action-value';
import { EpisodeServiceError, type ActionInput } from './types';

export const MAX_SEED = 2_147_483_647;
/** Limit on one action's text (UTF-8 bytes), checked before the engine sees it. */
export const MAX_ACTION_BYTES = 64 * 1024;

export const axisOverridesSchema = z.strictObject(
  Object.fromEntries(
    AXIS_NAMES.map((name) => {
      const r = AXIS_RANGES[name]; // the engine's own range of each axis
      const n = (r.integer ? z.int() : z.number()).min(r.min).max(r.max);
      return [name, n.optional()];
    }),
  ) as Record<AxisName, z.ZodOptional<z.ZodNumber>>,
);

export const playerSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,63}$/, 'player must be a short lowercase name such as "human" or "oracle"');

export const startSchema = z.strictObject({
  envId: z.string().min(1).max(32),
  d: z.int().min(D_RANGE.min).max(D_RANGE.max),
  seed: z.int().min(0).max(MAX_SEED).nullish(),
  axisOverrides: axisOverridesSchema.optional(),
  catalogId: z.string().min(1).max(200).optional(),
  player: playerSchema.optional(),
  /** a model connection's name: the LLM customer rewrites the customer's messages (SPEC §9) */
  customerVoice: z.string().min(1).max(100).optional(),
});

export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'episode id has invalid characters');

/** A client's idempotency key for one step (a UUID or any short token). */
export const stepKeySchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'step key has invalid characters');

// Structured actions are checked for shape only; the engine judges their content
// (an empty assistant_message is the agent's mistake, scored as format_invalid).
export const actionObjectSchema = z.object({
  assistant_message: z.string(),
  tool_calls: z
    .array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).optional() }))
    .max(100)
    .default([]),
  answer: z.record(z.string(), z.unknown()).nullable().default(null),
});

export const listSchema = z.strictObject({
  cursor: z.string().max(64).nullish(),
  limit: z.int().min(1).max(100).default(20),
});

/**
 * Parses a value from outside, or throws one BAD_INPUT worded `what: path: problem; path: problem`.
 * The service names every problem; a form's tRPC input (server/trpc/init.ts `described`) only the
 * first (`firstProblemOnly`), since a form shows one line.
 */
export function parse<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what: string,
  opts: { firstProblemOnly?: boolean } = {},
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = opts.firstProblemOnly ? r.error.issues.slice(0, 1) : r.error.issues;
  const problems = issues.map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`);
  throw new EpisodeServiceError('BAD_INPUT', `${what}: ${problems.join('; ')}`);
}

/** An action the store would not give back as sent (server/lib/action-value.ts) is bad input. */
function refuseUnstorable(action: unknown): void {
  const problem = actionValueProblem(action);
  if (problem) throw new EpisodeServiceError('BAD_INPUT', `${problem}. Nothing was sent to the episode.`);
}

/** Checks an action's size and shape, and how it is stored (raw text or structured JSON). */
export function actionRecord(action: ActionInput): {
  stepArg: string | Action;
  record: { format: 'text' | 'json'; raw: string };
} {
  if (typeof action === 'string') {
    const bytes = Buffer.byteLength(action, 'utf8');
    if (bytes > MAX_ACTION_BYTES) {
      throw new EpisodeServiceError(
        'TOO_LARGE',
        `action text is ${bytes} bytes; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was sent to the episode.`,
      );
    }
    refuseUnstorable(action);
    return { stepArg: action, record: { format: 'text', raw: action } };
  }
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    throw new EpisodeServiceError('BAD_INPUT', 'action must be the agent text (a string) or an action object');
  }
  refuseUnstorable(action); // before the schema: a 100k-deep value would overflow it
  const obj = parse(actionObjectSchema, action, 'action') as Action;
  const raw = JSON.stringify(obj);
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > MAX_ACTION_BYTES) {
    throw new EpisodeServiceError(
      'TOO_LARGE',
      `action is ${bytes} bytes as JSON; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was sent to the episode.`,
    );
  }
  return { stepArg: obj, record: { format: 'json', raw } };
}
