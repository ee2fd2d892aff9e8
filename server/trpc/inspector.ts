// The inspector's router: lists with filters and search, charts, per-turn views, compare,
// import and delete. Everything here is inspector data (hidden goals included).
import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { episodeService } from '@/server/episodes';
import { idSchema as id } from '@/server/episodes/inputs';
import { sameTaskEpisode } from '@/server/episodes/queries';
import { assertGoalOpen, guardRows, replayedEpisode } from '@/server/inspector/spoiler';
import { inspector, facets } from '@/server/inspector';
import { outcomeAggregates } from '@/server/episodes/queries/list';
import { alignTurns, breakdownDiff, compareRuns } from '@/server/inspector/compare';
import { episodeFilterSchema, listInputSchema } from '@/server/inspector/filters';
import { importFiles } from '@/server/inspector/import';
import { playOracleTwin } from '@/server/inspector/twin';
import { deleteEpisodes, listEpisodes } from '@/server/episodes/queries/list';
import { eventsIn, MAX_WINDOW_TURNS } from '@/server/inspector/turn-window';
import { inspectorProcedure, router } from './init';

const runSide = z.object({ by: z.enum(['player', 'run']), value: z.string().min(1).max(200) });

/** Total size of one import request (the CLI has no limit). */
const MAX_IMPORT_BYTES = 25 * 1024 * 1024;

const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `no episode with id "${what}"` });
/** The world, the evidence, the seed and a same-seed oracle of an active episode would spoil it (spoiler.ts). */
const assertNotSpoiler = (...ids: string[]) => assertGoalOpen(inspector().db, ...ids);

export const inspectorRouter = router({
  list: inspectorProcedure.input(listInputSchema).query(async ({ input }) => {
    const list = await listEpisodes(inspector().db, input);
    return { ...list, rows: await guardRows(inspector().db, list.rows) };
  }),
  facets: inspectorProcedure.query(() => facets()),
  charts: inspectorProcedure
    .input(z.object({ filter: episodeFilterSchema.default({}) }))
    .query(({ input }) => outcomeAggregates(inspector().db, input.filter)),
  delete: inspectorProcedure
    .input(z.object({ ids: z.array(id).min(1).max(10_000) }))
    .mutation(async ({ input }) => ({ deleted: await deleteEpisodes(inspector().db, input.ids) })),

  worldAt: inspectorProcedure.input(z.object({ id, turn: z.int().min(0).max(100_000) })).query(async ({ input }) => {
    await assertNotSpoiler(input.id);
    const w = await inspector().data.worldAt(input.id, input.turn);
    if (!w) throw notFound(input.id);
    return w;
  }),
  /** A window of a long episode's transcript (the replay page sends the first one). */
  turns: inspectorProcedure
    .input(
      z
        .object({ id, from: z.int().min(0).max(100_000), to: z.int().min(0).max(100_000) })
        .refine((r) => r.to >= r.from && r.to - r.from < MAX_WINDOW_TURNS, {
          message: `from ≤ to, at most ${MAX_WINDOW_TURNS} turns`,
        }),
    )
    .query(async ({ input }) => {
      const view = await replayedEpisode(input.id); // as on the replay page's first window
      const inRange = (t: number) => t >= input.from && t <= input.to;
      const records = (await episodeService.turnRecords(view.id)).filter((r) => inRange(r.turn));
      return { from: input.from, to: input.to, events: eventsIn(view.events, input), records };
    }),
  observationAt: inspectorProcedure
    .input(z.object({ id, turn: z.int().min(1).max(100_000) }))
    .query(async ({ input }) => {
      const view = await episodeService.getEpisode(input.id);
      return (await inspector().data.observationAt(input.id, input.turn, view.budgets))!;
    }),

  compare: inspectorProcedure.input(z.object({ a: id, b: id })).query(async ({ input }) => {
    await assertNotSpoiler(input.a, input.b);
    const [a, b] = await Promise.all([episodeService.getEpisode(input.a), episodeService.getEpisode(input.b)]);
    const { turns, firstDivergence } = alignTurns(a.events, b.events);
    return { a, b, turns, firstDivergence, differs: breakdownDiff(a.breakdown, b.breakdown) };
  }),
  compareRuns: inspectorProcedure
    .input(z.object({ a: runSide, b: runSide }))
    .query(({ input }) => compareRuns(inspector().db, input.a, input.b)),
  /** The episode the engine's oracle played on the same env, d and seed (newest), if stored. */
  sameSeed: inspectorProcedure
    .input(z.object({ id, player: z.string().min(1).max(80).default('oracle') }))
    .query(async ({ input }) => {
      await assertNotSpoiler(input.id); // the seed, and an oracle that passes it
      const same = await sameTaskEpisode(inspector().db, input.id, input.player);
      if (!same) throw notFound(input.id);
      return same;
    }),

  /** Plays the oracle on the same env, d and seed (stored as an ordinary episode); returns its id. */
  playOracle: inspectorProcedure.input(z.object({ id })).mutation(async ({ input }) => {
    await assertNotSpoiler(input.id);
    return { id: await playOracleTwin(episodeService, getCatalog, input.id) };
  }),

  import: inspectorProcedure
    .input(
      z.object({
        files: z
          .array(z.object({ name: z.string().min(1).max(300), text: z.string() }))
          .min(1)
          .max(2000),
      }),
    )
    .mutation(({ input }) => {
      const bytes = input.files.reduce((n, f) => n + Buffer.byteLength(f.text, 'utf8'), 0);
      if (bytes > MAX_IMPORT_BYTES)
        throw new TRPCError({
          code: 'PAYLOAD_TOO_LARGE',
          message: `the files are ${(bytes / 1e6).toFixed(1)} MB; the limit per upload is 25 MB (use npm run episodes:import for more). Nothing was imported.`,
        });
      return importFiles(inspector().db, input.files, { getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID });
    }),
});
