// The browser playground: starting an episode from the home page (its capability token goes into
// an HttpOnly cookie scoped to the episode's playground, never to page scripts) and what the
// playground page renders. Turns and reveals are the agent seat's (seat.ts).
import { z } from 'zod';
import { requireAdmin } from '@/server/auth';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import { prisma } from '@/server/db';
import { episodeService } from '@/server/episodes';
import { idSchema, startSchema } from '@/server/episodes/inputs';
import { toSeatView } from '@/server/episodes/seat';
import { requireConnectionUse } from '@/server/models/access';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { setEpisodeCookie } from './cookies';
import { agentProcedure, described, publicProcedure, router } from './init';

export const playRouter = router({
  /** Starts an episode for this browser and answers its id (the playground is /play/<id>). */
  start: publicProcedure.input(described(startSchema, 'start episode')).mutation(async ({ ctx, input }) => {
    if (Object.keys(input.axisOverrides ?? {}).length > 0) requireAdmin(ctx.auth, ctx.creds, 'axis overrides');
    // the customer's voice calls a model endpoint with the admin's key: a public connection or the admin
    if (input.customerVoice)
      await requireConnectionUse(
        createPrismaConnectionStore(prisma),
        input.customerVoice,
        (what) => requireAdmin(ctx.auth, ctx.creds, what),
        'the customer voice',
      );
    const { capabilityToken, ...view } = await episodeService.startEpisode({
      ...input,
      player: input.player ?? 'human',
    });
    setEpisodeCookie(ctx, view.id, capabilityToken);
    return { id: view.id };
  }),
  /** The playground page: the agent seat's view, its environment, its tools and who took each turn. */
  page: agentProcedure.input(z.object({ id: idSchema })).query(async ({ input }) => {
    const seat = toSeatView(await episodeService.getEpisode(input.id));
    const env = listEnvs().find((e) => e.id === seat.envId);
    const records = await episodeService.turnRecords(seat.id);
    return {
      seat,
      tools: toolSpecsFor(seat.envId),
      env: {
        id: seat.envId,
        name: env?.name ?? seat.envId,
        passRule: env?.passRule ?? '',
        keepsGoOnAnswers: env?.keepsGoOnAnswers ?? false,
        answerSchema: env?.answerSchema ?? {},
      },
      actors: Object.fromEntries(records.map((r) => [r.turn, r.actor])) as Record<number, string | null>,
    };
  }),
});
