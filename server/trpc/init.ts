// tRPC setup: the request's credentials in the context, one error mapping, and the procedures
// each role may reach: publicProcedure, agentProcedure (the episode's capability token or the
// admin), inspectorProcedure and adminProcedure (the admin token). With auth off every
// procedure is open (a local tool).
import { initTRPC, TRPCError } from '@trpc/server';
import type { z } from 'zod';
import {
  authConfig,
  credentialsFrom,
  NO_CREDENTIALS,
  requireAdmin,
  requireAgent,
  type AuthConfig,
  type Credentials,
} from '@/server/auth';
import { episodeService } from '@/server/episodes';
import { parse } from '@/server/episodes/inputs';
import { isAppError, toPublicError, type ErrorCode } from '@/server/lib/errors';

type HeaderReader = { get(name: string): string | null };

export interface TrpcContext {
  auth: AuthConfig;
  creds: Credentials;
  /** The request's headers (null: none, as for tests without a request). */
  headers: HeaderReader | null;
  /** Where a procedure sets cookies (Set-Cookie): the route handler's response; null for server-side callers. */
  resHeaders: Headers | null;
  /** Who takes a seat's turns through this mount ('human': the browser playground), recorded per turn. */
  actor?: string;
}

/**
 * From a fetch request (the route handlers), or request headers alone (a server component's
 * caller), or none (tests).
 */
export const createContext = (
  opts: { req?: Request; headers?: HeaderReader; resHeaders?: Headers; auth?: AuthConfig; actor?: string } = {},
): TrpcContext => {
  const headers = opts.req?.headers ?? opts.headers ?? null;
  return {
    auth: opts.auth ?? authConfig(),
    creds: headers ? credentialsFrom(headers) : NO_CREDENTIALS,
    headers,
    resHeaders: opts.resHeaders ?? null,
    ...(opts.actor ? { actor: opts.actor } : {}),
  };
};

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape }) {
    // no stack traces or internal paths in responses
    const { stack: _stack, ...data } = shape.data as typeof shape.data & { stack?: string };
    return { ...shape, data };
  },
});

const CODE_MAP: Record<ErrorCode, TRPCError['code']> = {
  BAD_INPUT: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  LIMIT: 'UNPROCESSABLE_CONTENT',
  NOT_FOUND: 'NOT_FOUND',
  EPISODE_DONE: 'PRECONDITION_FAILED',
  CONFLICT: 'CONFLICT',
  BUSY: 'SERVICE_UNAVAILABLE',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  REPLAY_MISMATCH: 'INTERNAL_SERVER_ERROR',
  REPLAY_UNSUPPORTED: 'PRECONDITION_FAILED',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

/**
 * App errors (recognised by code, not instanceof) become tRPC errors with the same precise
 * message; any other failure is logged with an id and reaches the client as that id only.
 */
const errors = t.middleware(async ({ next }) => {
  const res = await next();
  if (res.ok) return res;
  const err = res.error;
  const cause = err.cause;
  if (isAppError(cause)) throw new TRPCError({ code: CODE_MAP[cause.code], message: cause.message });
  if (err.code !== 'INTERNAL_SERVER_ERROR') return res; // input validation and other tRPC errors are precise already
  const pub = toPublicError(cause ?? err);
  throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: pub.message });
});

export const router = t.router;
export const publicProcedure = t.procedure.use(errors);

/** The episode id a procedure acts on: `id` or `episodeId` in its input. */
function episodeIdOf(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as { id?: unknown; episodeId?: unknown };
  const id = r.episodeId ?? r.id;
  return typeof id === 'string' ? id : null;
}

export const agentProcedure = publicProcedure.use(async ({ ctx, getRawInput, next }) => {
  const id = episodeIdOf(await getRawInput());
  if (!id) throw new TRPCError({ code: 'BAD_REQUEST', message: 'episode id is required' });
  await requireAgent(ctx.auth, ctx.creds, id, (episodeId, token) => episodeService.checkCapability(episodeId, token));
  return next();
});

export const inspectorProcedure = publicProcedure.use(({ ctx, next }) => {
  requireAdmin(ctx.auth, ctx.creds, 'the inspector');
  return next();
});

export const adminProcedure = publicProcedure.use(({ ctx, next }) => {
  requireAdmin(ctx.auth, ctx.creds, 'this admin operation');
  return next();
});

export const createCallerFactory = t.createCallerFactory;

/**
 * An input parser for forms and the browser's mutations: one BAD_REQUEST naming the input, the
 * path inside it and the first problem, worded as the episode service words its own
 * (server/episodes/inputs.ts), e.g. "batch run: seeds: a whole number from 1 to 50".
 */
export const described =
  <T>(schema: z.ZodType<T>, what: string) =>
  (raw: unknown): T =>
    parse(schema, raw, what, { firstProblemOnly: true });
