// Thin routers: validate input, call a service or the engine's public API.
import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import { axisRows } from '@/server/episodes/axes';
import { ENV_IDS } from '@/server/engine/types';
import { D_RANGE } from '@/server/engine/difficulty';
import { episodeService } from '@/server/episodes';
import { idSchema, listSchema } from '@/server/episodes/inputs';
import { listCatalogs } from '@/server/catalogs';
import { assertGoalOpen, guardEpisode, guardRow } from '@/server/inspector/spoiler';
import { inspector } from '@/server/inspector';
import { inspectorProcedure, publicProcedure, router } from './init';
import { curriculumRouter } from './curriculum';
import { seatRouter } from './seat';
import { inspectorRouter } from './inspector';
import { playRouter } from './play';
import { replayRouter } from './replay';
import { modelsRouter } from './models';
import { runsRouter } from './runs';
import { authRouter } from './auth';

const envIdSchema = z.enum(ENV_IDS);

/** The inspector's view of episodes: the hidden goal, the world, every episode. */
export const episodesRouter = router({
  // behind the spoiler guard while an episode is active and unrevealed (server/inspector/spoiler.ts)
  list: inspectorProcedure.input(listSchema).query(async ({ input }) => {
    const page = await episodeService.listEpisodes({ cursor: input.cursor ?? null, limit: input.limit });
    return { ...page, items: page.items.map((e) => guardRow(e, e.revealed)) };
  }),
  get: inspectorProcedure
    .input(z.object({ id: idSchema }))
    .query(async ({ input }) => guardEpisode(await episodeService.getEpisode(input.id))),
  world: inspectorProcedure.input(z.object({ id: idSchema })).query(async ({ input }) => {
    await assertGoalOpen(inspector().db, input.id);
    return episodeService.getWorld(input.id);
  }),
});

export const catalogRouter = router({
  /** Catalogs an episode can use: the default, larger synthetic presets, imported ones. */
  list: publicProcedure.query(() => listCatalogs()),
  /** Display titles for ids that a tool result or an answer shows without one. */
  titles: publicProcedure
    .input(z.object({ catalogId: z.string().min(1).max(200), ids: z.array(z.string().min(1).max(200)).max(200) }))
    .query(({ input }) => episodeService.productTitles(input.catalogId, input.ids)),
});

export const envsRouter = router({
  list: publicProcedure.query(() => listEnvs()),
});

export const toolsRouter = router({
  list: publicProcedure.input(z.object({ envId: envIdSchema })).query(({ input }) => {
    if (!listEnvs().some((e) => e.id === input.envId))
      throw new TRPCError({ code: 'NOT_FOUND', message: `environment ${input.envId} is not available yet` });
    return toolSpecsFor(input.envId);
  }),
});

export const difficultyRouter = router({
  preview: publicProcedure
    .input(z.object({ d: z.int().min(D_RANGE.min).max(D_RANGE.max) }))
    .query(({ input }) => axisRows(input.d)),
});

export const appRouter = router({
  episodes: episodesRouter,
  seat: seatRouter,
  envs: envsRouter,
  tools: toolsRouter,
  difficulty: difficultyRouter,
  catalog: catalogRouter,
  curriculum: curriculumRouter,
  inspector: inspectorRouter,
  play: playRouter,
  replay: replayRouter,
  models: modelsRouter,
  runs: runsRouter,
  auth: authRouter,
});

export type AppRouter = typeof appRouter;

/**
 * The agent seat mounted under an episode's playground (/play/<id>/trpc): the browser's
 * capability cookie is scoped to that path, so the playground's turns and reveals go here.
 */
export const seatMount = router({ seat: seatRouter });

export type SeatMount = typeof seatMount;
