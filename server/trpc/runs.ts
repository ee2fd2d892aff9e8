// Batch runs (admin when auth is on): a player over environments × difficulties × seeds, played
// in a worker; their stats per cell and the tasks two runs disagree on.
import { z } from 'zod';
import { RUN_BOUNDS } from '@/lib/run-bounds';
import { boundedInt as bounded, temperatureSchema } from '@/server/lib/run-schemas';
import { DEFAULT_CATALOG_ID } from '@/server/catalogs';
import { prisma } from '@/server/db';
import type { ModelRun } from '@/server/generated/prisma/client';
import { ENV_IDS } from '@/server/engine/types';
import { inspector } from '@/server/inspector';
import { compareRuns } from '@/server/inspector/compare';
import { batchRunName, runKey } from '@/server/inspector/run-keys';
import { requireAdmin } from '@/server/auth';
import { attributeFailure } from '@/server/inspector/attribution';
import { groupCause } from '@/server/inspector/group-cause';
import { compareGroups, parseGroupSlug, summarizeRun } from '@/server/inspector/run-view';
import { readGroup, readRewardBins, readRunGroups, rolloutLogs } from '@/server/episodes/run-rollouts';
import { AppError } from '@/server/lib/errors';
import { cancelStoredRun, runStats, startStoredRun } from '@/server/models/runs';
import { workerRunPlayer } from '@/server/models/run-player';
import { tablePlayerFor } from '@/server/models/access';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { adminProcedure, described, inspectorProcedure, router } from './init';

/** A batch run as the runs page lists it; `name`: the name given at start, or the default (who × envs × d × seeds). */
const runRowOf = ({ id, createdAt, player, spec, state, total, done, infraFailures }: ModelRun) => ({
  id,
  name: batchRunName(player, spec),
  createdAt: createdAt.toISOString(),
  player,
  state,
  total,
  done,
  infraFailures,
});
export type RunRow = ReturnType<typeof runRowOf>;

const dLevel = bounded(RUN_BOUNDS.d);
// Strict: an unknown environment or field is refused, not dropped, and nothing is clamped.
const runInput = z
  .strictObject({
    player: z.string().min(1, 'choose who plays').max(200),
    /** empty or absent: the default name (who × envs × d × seeds) */
    name: z.string().trim().max(120, 'a run name is at most 120 characters').optional(),
    envs: z
      .array(z.enum(ENV_IDS, { error: (i) => `unknown environment ${JSON.stringify(i.input)}` }))
      .min(1, `choose at least one environment (${ENV_IDS.join(', ')})`)
      .refine((envs) => new Set(envs).size === envs.length, 'an environment is named twice'),
    dFrom: dLevel,
    dTo: dLevel,
    seeds: bounded(RUN_BOUNDS.seeds),
    concurrency: bounded(RUN_BOUNDS.concurrency).optional(),
    rolloutsPerSeed: bounded(RUN_BOUNDS.rolloutsPerSeed).optional(),
    temperature: temperatureSchema.optional(),
  })
  .refine((r) => r.dFrom <= r.dTo, { message: 'the difficulty range is empty: d from is above d to', path: ['dTo'] });

const runId = described(z.object({ id: z.string() }), 'run');
const runKeyInput = z.string().min(1).max(200);
const step = z.int().min(0).optional();

/** A run's groups (training runs, batch, curriculum and import runs alike). */
const groupsOf = (run: string) => readRunGroups(inspector().db, run);

export const runsRouter = router({
  list: adminProcedure.query(async () =>
    (await prisma.modelRun.findMany({ orderBy: { createdAt: 'desc' }, take: 50 })).map(runRowOf),
  ),
  /** Starts a run in the background; answers its id. */
  start: adminProcedure.input(described(runInput, 'batch run')).mutation(async ({ ctx, input }) => {
    const { envs, dFrom, dTo, concurrency = 1 } = input;
    const player = await tablePlayerFor(createPrismaConnectionStore(prisma), input.player, (what) =>
      requireAdmin(ctx.auth, ctx.creds, what),
    );
    const ds = Array.from({ length: dTo - dFrom + 1 }, (_, i) => dFrom + i);
    const seeds = Array.from({ length: input.seeds }, (_, i) => i + 1);
    const run = await startStoredRun({ prisma, runPlayer: workerRunPlayer(), catalogId: DEFAULT_CATALOG_ID }, player, {
      ...(input.name ? { name: input.name } : {}),
      envs,
      ds,
      seeds,
      concurrency,
      rolloutsPerSeed: input.rolloutsPerSeed,
      temperature: input.temperature,
    });
    void run.finished.catch((e) => console.error(`batch run ${run.id} stopped: ${(e as Error).message}`));
    return { id: run.id };
  }),
  cancel: adminProcedure.input(runId).mutation(({ input }) => cancelStoredRun(input.id)),
  stats: adminProcedure.input(runId).query(({ input }) => runStats(prisma, input.id)),
  /** The run view: figures per train step and env × d, zero-variance groups, the worst groups. */
  view: inspectorProcedure
    .input(z.object({ run: runKeyInput }))
    .query(async ({ input }) =>
      summarizeRun(await groupsOf(input.run), await readRewardBins(inspector().db, input.run)),
    ),
  /** One group: its rollouts with advantages, why it is flat, where its rollouts part, who failed each. */
  group: inspectorProcedure
    .input(z.object({ run: runKeyInput, group: z.string().min(1).max(300) }))
    .query(async ({ input }) => {
      const group = await readGroup(inspector().db, input.run, parseGroupSlug(input.group));
      if (!group)
        throw new AppError('NOT_FOUND', `run "${input.run}" has no finished rollouts in group "${input.group}"`);
      const logs = await rolloutLogs(
        inspector().db,
        group.rollouts.map((r) => r.id),
      );
      return {
        group,
        cause: groupCause(logs),
        attributions: logs.map((l) => attributeFailure(l)),
      };
    }),
  /** Two runs (or two train steps of one) over the same prompts: variance gained or lost, tasks flipped. */
  versus: inspectorProcedure
    .input(z.object({ a: runKeyInput, b: runKeyInput, stepA: step, stepB: step }))
    .query(async ({ input }) =>
      compareGroups(await groupsOf(input.a), await groupsOf(input.b), { a: input.stepA, b: input.stepB }),
    ),
  /** Tasks that passed in one run and failed in the other. */
  flipped: adminProcedure
    .input(described(z.object({ a: z.string(), b: z.string() }), 'runs'))
    .query(async ({ input }) => {
      const side = (id: string) => ({ by: 'run' as const, value: runKey('batch', id) });
      return (await compareRuns(inspector().db, side(input.a), side(input.b))).flipped;
    }),
});
