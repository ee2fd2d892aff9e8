// The curriculum router: thin, the service validates and does the work.
import { z } from 'zod';
import { isAdmin, requireAdmin } from '@/server/auth';
import { curriculumService } from '@/server/curriculum';
import { adminProcedure, inspectorProcedure, router } from './init';

const runId = z.object({ id: z.string().min(1).max(64) });
/** Who plays and how; the service checks the bounds of G and the temperature, with its messages. */
const play = {
  agent: z.string().min(1).max(200).default('oracle'),
  rolloutsPerTask: z.number().optional(),
  temperature: z.number().optional(),
};

export const curriculumRouter = router({
  meta: inspectorProcedure.query(async ({ ctx }) => ({
    players: await curriculumService.players(isAdmin(ctx.auth, ctx.creds)),
    collections: curriculumService.collections(),
  })),
  list: inspectorProcedure
    .input(z.object({ limit: z.int().min(1).max(200).default(50) }).optional())
    .query(({ input }) => curriculumService.listRuns(input?.limit)),
  get: inspectorProcedure.input(runId).query(({ input }) => curriculumService.getRun(input.id)),
  /** A step in progress: episodes played of the total (null when none runs). */
  progress: inspectorProcedure.input(runId).query(({ input }) => curriculumService.progress(input.id)),
  /** Stops a step in progress after its current episode. */
  cancel: adminProcedure.input(runId).mutation(({ input }) => ({ cancelled: curriculumService.cancel(input.id) })),
  create: adminProcedure
    .input(
      z.object({
        name: z.string().max(80).optional(),
        collection: z.string().min(1).max(8),
        seed: z.int().min(0).nullish(),
        sampling: z.enum(['uniform', 'round_robin']).optional(),
      }),
    )
    .mutation(({ input }) => curriculumService.createRun(input)),
  /** Starts playing in the background and returns at once; progress and cancel follow it. */
  start: adminProcedure
    .input(runId.extend({ episodes: z.int().min(1).max(1000), ...play }))
    .mutation(({ ctx, input: { id, ...step } }) =>
      curriculumService.startStep(id, step, (what) => requireAdmin(ctx.auth, ctx.creds, what)),
    ),
  /** Plays and answers when done (the CLI and scripts). */
  step: adminProcedure
    .input(runId.extend({ episodes: z.int().min(1).max(1000), storeEpisodes: z.boolean().default(true), ...play }))
    .mutation(({ ctx, input: { id, ...step } }) =>
      curriculumService.stepRun(id, step, undefined, (what) => requireAdmin(ctx.auth, ctx.creds, what)),
    ),
});
