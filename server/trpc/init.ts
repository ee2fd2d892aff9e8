import { initTRPC, TRPCError } from '@trpc/server';
import { EpisodeServiceError } from '@/server/episodes/types';

export type TrpcContext = Record<string, never>;
export const createContext = (): TrpcContext => ({});

const t = initTRPC.context<TrpcContext>().create();

const CODE_MAP = {
  BAD_INPUT: 'BAD_REQUEST',
  TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  NOT_FOUND: 'NOT_FOUND',
  EPISODE_DONE: 'PRECONDITION_FAILED',
  CONFLICT: 'CONFLICT',
  REPLAY_MISMATCH: 'INTERNAL_SERVER_ERROR',
  REPLAY_UNSUPPORTED: 'PRECONDITION_FAILED',
} as const;

/** Service errors become tRPC errors with the same, precise message. */
const serviceErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok && res.error.cause instanceof EpisodeServiceError) {
    const cause = res.error.cause;
    throw new TRPCError({ code: CODE_MAP[cause.code], message: cause.message, cause });
  }
  return res;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(serviceErrors);
export const createCallerFactory = t.createCallerFactory;
