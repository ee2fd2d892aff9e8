// The curriculum router: thin, the service validates and does the work.
import { z } from 'zod';
import { isAdmin, requireAdmin } from '@/server/auth';
import { curriculumService } from '@/server/curriculum';
import { adminProcedure, inspectorProcedure, router } from './init';

const runId = z.object({ id: z.string().min(1).max(64) });

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
    .input(
      runId.extend({
        episodes: z.int().min(1).max(1000),
        agent: z.string().min(1).max(200).default('oracle'),
      }),
    )
    .mutation(({ ctx, input }) =>
      curriculumService.startStep(input.id, { episodes: input.episodes, agent: input.agent }, (what) =>
        requireAdmin(ctx.auth, ctx.creds, what),
      ),
    ),
  /** Plays and answers when done (the CLI and scripts). */
  step: adminProcedure
    .input(
      runId.extend({
        episodes: z.int().min(1).max(1000),
        agent: z.string().min(1).max(200).default('oracle'),
        storeEpisodes: z.boolean().default(true),
      }),
    )
    .mutation(({ ctx, input }) =>
      curriculumService.stepRun(
        input.id,
        { episodes: input.episodes, agent: input.agent, storeEpisodes: input.storeEpisodes },
        undefined,
        undefined,
        (what) => requireAdmin(ctx.auth, ctx.creds, what),
      ),
    ),
});
