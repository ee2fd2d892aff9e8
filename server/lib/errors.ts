// One error taxonomy for the whole server. Errors are recognised by a brand and a `code`,
// never by `instanceof`: Next compiles a module into several chunks, and a class from one
// chunk is not the class of another.
import { randomBytes } from 'node:crypto';

/** Every error code and its HTTP status (tRPC, route handlers and the env server use the same table). */
export const HTTP_STATUS = {
  BAD_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  EPISODE_DONE: 409,
  CONFLICT: 409,
  TOO_LARGE: 413,
  LIMIT: 422,
  BUSY: 503,
  /** too many requests from one client (a rate limit, server/lib/rate-limit.ts) */
  RATE_LIMITED: 429,
  REPLAY_MISMATCH: 500,
  /** played under engine rules this engine no longer has (server/engine/version.ts) */
  REPLAY_UNSUPPORTED: 412,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof HTTP_STATUS;

const BRAND = 'ecomrlve.error';

export class AppError extends Error {
  readonly brand = BRAND;
  constructor(
    public readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export interface PublicError {
  code: ErrorCode;
  message: string;
}

/** True for any AppError (or subclass), whichever bundle chunk created it. */
export function isAppError(e: unknown): e is PublicError & Error {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as { brand?: unknown; code?: unknown; message?: unknown };
  return x.brand === BRAND && typeof x.message === 'string' && Object.hasOwn(HTTP_STATUS, String(x.code));
}

/**
 * What a client may see of an error: an AppError as it is; anything else is logged with an id
 * and replaced by a message naming only that id (internal text never leaves the server).
 */
export function toPublicError(e: unknown, log: (line: string, err: unknown) => void = defaultLog): PublicError {
  if (isAppError(e)) return { code: e.code, message: e.message };
  const id = randomBytes(4).toString('hex');
  log(`[ecomrlve] internal error ${id}`, e);
  return { code: 'INTERNAL', message: `internal error (id ${id}); the details are in the server log` };
}

function defaultLog(line: string, err: unknown) {
  console.error(line, err);
}
