// The agent seat over tRPC: the same payloads the playground gets (server/episodes/seat.ts).
// Any program acting as the agent uses these; the capability token from `start` goes in the
// x-episode-token header of every later call. The browser playground reaches the same router
// under /play/<id>/trpc, where the episode's capability cookie (path /play/<id>) comes along.
import { z } from 'zod';
import { requireAdmin } from '@/server/auth';
import { episodeService } from '@/server/episodes';
import { idSchema, startSchema } from '@/server/episodes/inputs';
import { toSeatView } from '@/server/episodes/seat';
import { agentProcedure, described, publicProcedure, router } from './init';

const episodeRef = z.object({ id: idSchema });

/** One turn: raw agent text or a structured action, and an optional step key. */
const stepInput = episodeRef.extend({
  action: z.union([z.string(), z.record(z.string(), z.unknown())]),
  stepKey: z.string().min(1).max(100).optional(),
});

export const seatRouter = router({
  /** Starts an episode. Axis overrides are an admin operation. */
  start: publicProcedure
    // the playground's start without the customer voice (which calls a model with the admin's key)
    .input(described(startSchema.omit({ customerVoice: true }), 'start episode'))
    .mutation(async ({ ctx, input }) => {
      if (input.axisOverrides && Object.keys(input.axisOverrides).length > 0)
        requireAdmin(ctx.auth, ctx.creds, 'axis overrides');
      const { capabilityToken, ...view } = await episodeService.startEpisode({
        ...input,
        player: input.player ?? 'api',
      });
      return { episode: toSeatView(view), capabilityToken };
    }),
  get: agentProcedure
    .input(episodeRef)
    .query(async ({ input }) => toSeatView(await episodeService.getEpisode(input.id))),
  /** One turn: raw agent text or a structured action; `stepKey` makes a retry return the stored result. */
  step: agentProcedure.input(stepInput).mutation(async ({ ctx, input }) =>
    toSeatView(
      await episodeService.submitAction(input.id, input.action as never, {
        stepKey: input.stepKey,
        ...(ctx.actor ? { actor: ctx.actor } : {}),
      }),
    ),
  ),
  /** Reveals the hidden goal on purpose: recorded, and the episode leaves the statistics. */
  reveal: agentProcedure
    .input(episodeRef)
    .mutation(async ({ input }) => toSeatView(await episodeService.revealGoal(input.id))),
});
