// Protocol errors: one code (OpenEnv's WSErrorCode names where they exist), one HTTP status,
// one sentence a researcher can act on. Every transport renders these the same way.

import { randomUUID } from 'node:crypto';

export type ErrorCode =
  | 'INVALID_JSON'
  | 'VALIDATION_ERROR'
  | 'UNKNOWN_TYPE'
  | 'UNKNOWN_EPISODE'
  | 'BAD_TOKEN'
  | 'EPISODE_DONE'
  | 'EPISODE_EXISTS'
  | 'NO_EPISODE'
  | 'CAPACITY_REACHED'
  | 'BODY_TOO_LARGE'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PRODUCTION_MODE'
  | 'SESSION_TIMEOUT'
  | 'RATE_LIMITED'
  | 'QUOTA'
  | 'EXECUTION_ERROR';

const STATUS: Record<ErrorCode, number> = {
  INVALID_JSON: 400,
  VALIDATION_ERROR: 422,
  UNKNOWN_TYPE: 400,
  UNKNOWN_EPISODE: 404,
  BAD_TOKEN: 401,
  EPISODE_DONE: 409,
  EPISODE_EXISTS: 409,
  NO_EPISODE: 409,
  CAPACITY_REACHED: 503,
  BODY_TOO_LARGE: 413,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PRODUCTION_MODE: 403,
  SESSION_TIMEOUT: 408,
  RATE_LIMITED: 429,
  QUOTA: 413,
  EXECUTION_ERROR: 500,
};

/** One failed check of a request, in the shape FastAPI/pydantic answers a 422 with (OpenEnv's `detail` list). */
export interface ValidationDetail {
  type: string;
  loc: (string | number)[];
  msg: string;
}

export class EnvServerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly episodeId: string | null = null,
    /** For a VALIDATION_ERROR: each failed check (HTTP `detail`, WebSocket `errors`). */
    readonly detail: ValidationDetail[] | null = null,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }

  /**
   * The HTTP error body: FastAPI's `detail` (the list of failed checks for a validation error,
   * else the sentence) beside ours, `{ episode_id, error: { code, message } }`.
   */
  toBody(): ErrorBody {
    return {
      detail: this.detail ?? this.message,
      episode_id: this.episodeId,
      error: { code: this.code, message: this.message },
    };
  }
}

export interface ErrorBody {
  detail: ValidationDetail[] | string;
  episode_id: string | null;
  error: { code: ErrorCode; message: string };
}

/** Anything thrown that is not a protocol error is the server's fault; say so without internals. */
export function asEnvServerError(e: unknown, episodeId: string | null = null): EnvServerError {
  if (e instanceof EnvServerError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new EnvServerError('EXECUTION_ERROR', `the environment failed: ${message}`, episodeId);
}

const UNIQUE_VIOLATION = /unique constraint|duplicate key/i;

/**
 * A failed write in one sentence without the database's text: a reset whose episode_id is
 * already stored (another worker's, or one from before a restart) is a 409; anything else is
 * logged with a reference the answer names.
 */
export function writeFailure(e: unknown, episodeId: string): EnvServerError {
  const message = String((e as Error)?.message ?? e);
  if (UNIQUE_VIOLATION.test(message))
    return new EnvServerError(
      'EPISODE_EXISTS',
      `episode_id "${episodeId}" is already stored; reset with another episode_id, or none to get a new one`,
      episodeId,
    );
  const ref = randomUUID().slice(0, 8);
  console.error(`[serve:env] error ${ref}: episode ${episodeId}: ${message}`);
  return new EnvServerError(
    'EXECUTION_ERROR',
    `the episode could not be stored (error ${ref} in the server log); it is closed, reset to start another`,
    episodeId,
  );
}
