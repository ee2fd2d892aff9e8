// The inspector's replay of one episode (/episodes/<id>): what the page renders, forking it at a
// turn, and re-scoring it under the current reward revision. The goal, the world and the
// evidence stay behind the spoiler guard while the episode is active and not revealed.
import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { listEnvs } from '@/server/engine';
import { episodeService, rescoreService } from '@/server/episodes';
import { axisRows } from '@/server/episodes/axes';
import { idSchema } from '@/server/episodes/inputs';
import { inspector } from '@/server/inspector';
import { goalHidden, replayedEpisode } from '@/server/inspector/spoiler';
import { listInputFromParams } from '@/server/inspector/filters';
import { neighbours } from '@/server/episodes/queries/list';
import { eventsIn, windowAround } from '@/server/inspector/turn-window';
import { setEpisodeCookie } from './cookies';
import { described, inspectorProcedure, router } from './init';
import { actorsOf } from '@/server/episodes/provenance';

export const replayRouter = router({
  /**
   * The replay page: the stored view (the world is fetched per selected turn), and of a long
   * episode only the turns around the selected one. `list` is the episode list's query string
   * (previous / next in that list).
   */
  page: inspectorProcedure
    .input(
      z.object({ id: idSchema, turn: z.int().min(0).max(100_000).nullish(), list: z.string().max(2000).nullish() }),
    )
    .query(async ({ input }) => {
      // behind the spoiler guard nothing of the goal is sent (nor the seed, which regenerates it)
      const view = await replayedEpisode(input.id);
      const open = !goalHidden(view);
      const ins = inspector();
      const extras = await ins.data.extras(view.id, view.events);
      if (!extras) throw new TRPCError({ code: 'NOT_FOUND', message: `no episode with id "${input.id}"` });
      const [turnRecords, family, rescores] = await Promise.all([
        episodeService.turnRecords(view.id),
        episodeService.family(view.id),
        open && view.status === 'done' ? rescoreService.listRescores(view.id) : [],
      ]);
      const list =
        input.list != null
          ? {
              params: input.list,
              ...(await neighbours(ins.db, listInputFromParams(new URLSearchParams(input.list)), view.id)),
            }
          : null;
      const lastTurn = extras.marks.length - 1;
      const window = windowAround(input.turn ?? lastTurn, lastTurn);
      const env = listEnvs().find((e) => e.id === view.envId);
      return {
        ep: { ...view, events: eventsIn(view.events, window) },
        envName: env?.name,
        passRule: env?.passRule,
        axes: axisRows(view.d, view.axes, view.axisOverrides),
        initialTurn: input.turn ?? null,
        extras,
        list,
        guarded: !open,
        rescores,
        currentRevision: rescoreService.currentRevision,
        turnRecords: turnRecords.filter((r) => r.turn >= window.from && r.turn <= window.to),
        window,
        family,
        otherActors: [...new Set(turnRecords.map((r) => r.actor))].filter(
          (a): a is string => a !== null && !actorsOf(view.player).includes(a),
        ),
      };
    }),
  /** A new episode from the first `turn` turns of this one; answers its id and hands this browser its seat. */
  fork: inspectorProcedure
    .input(described(z.object({ id: z.string(), turn: z.number() }), 'fork'))
    .mutation(async ({ ctx, input }) => {
      const { capabilityToken, ...view } = await episodeService.forkEpisode(input.id, input.turn);
      setEpisodeCookie(ctx, view.id, capabilityToken);
      return { id: view.id };
    }),
  /** Re-scores a finished episode under the current reward revision (the stored reward is kept). */
  rescore: inspectorProcedure
    .input(described(z.object({ id: z.string() }), 'episode'))
    .mutation(({ input }) => rescoreService.rescoreEpisode(input.id)),
});
