// A structured action sent over a transport (HTTP, WebSocket, MCP: protocol.ts's stepEpisode) is
// checked against the published action schema (GET /schema) before the engine sees it, as OpenEnv
// checks one against its action class: one that breaks the schema is refused (HTTP 422 with a
// `detail` list, WebSocket VALIDATION_ERROR) and the episode goes on untouched. In-process
// callers (stepLive) may still step anything: the engine scores it. The model's raw text (a string action) is not checked here: the engine parses it
// and scores text it cannot use with its format rule (format_invalid), the learning signal.

import type { z } from 'zod';
import { EnvServerError, type ValidationDetail } from './errors';
import { actionSchemaFor, describeIssues, wireActionSchema } from './schemas';
import { actionValueProblem } from '@/server/lib/action-value';
import { MAX_ACTION_BYTES } from '@/server/episodes/inputs';

/** Zod's issues as pydantic's error list: the check, where (below `loc`), and why. */
export function validationDetail(error: z.ZodError, loc: (string | number)[] = []): ValidationDetail[] {
  return error.issues.map((i) => ({
    type: i.code,
    loc: [...loc, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
  }));
}

/** Throws VALIDATION_ERROR (with the failed checks) when a structured action breaks the env's action schema. */
export function checkAction(envId: string, action: unknown, episodeId: string): void {
  if (typeof action === 'string') return;
  const r = actionSchemaFor(envId).safeParse(action);
  if (r.success) return;
  throw new EnvServerError(
    'VALIDATION_ERROR',
    `step: the action does not match the ${envId} action schema (GET /schema?env=${envId}): ${describeIssues(r.error)}; the episode is unchanged`,
    episodeId,
    validationDetail(r.error, ['body', 'action']),
  );
}

export function parse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  episodeId: string | null = null,
): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new EnvServerError('VALIDATION_ERROR', `${what}: ${describeIssues(r.error)}`, episodeId);
  return r.data;
}

/**
 * The wire action: text, or a plain object as JSON.parse makes them, taken as they are (what the
 * schema would return, without its per-key copy); anything else goes through the schema for its
 * error message.
 */
export function wireAction(action: unknown, episodeId: string): unknown {
  if (typeof action === 'string') return storable(action, Buffer.byteLength(action, 'utf8'), episodeId);
  if (typeof action === 'object' && action !== null && Object.getPrototypeOf(action) === Object.prototype)
    return storable(action, null, episodeId);
  return parse(wireActionSchema, action, 'step: action', episodeId);
}

/**
 * What the recorder stores must replay as sent and stay within the stored-action limit: an
 * action that would not (server/lib/action-value.ts) or is larger is refused before the engine.
 */
function storable(action: unknown, bytes: number | null, episodeId: string): unknown {
  const problem = actionValueProblem(action);
  if (problem) throw new EnvServerError('VALIDATION_ERROR', `step: ${problem}`, episodeId);
  const size = bytes ?? Buffer.byteLength(JSON.stringify(action), 'utf8');
  if (size > MAX_ACTION_BYTES)
    throw new EnvServerError(
      'BODY_TOO_LARGE',
      `step: the action is ${size} bytes; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was stored.`,
      episodeId,
    );
  return action;
}
