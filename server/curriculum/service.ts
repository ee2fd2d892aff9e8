// The curriculum service: create runs, advance them by playing episodes with a built-in agent or
// a connected model (off the request thread, as batch runs play), and read them back. The state
// lives in CurriculumRun.state (JSON), written with the episodes it has seen, one transaction per
// batch of up to 25 episodes.
import type { SqlDb } from '@/server/db/sql';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS, sqlDbOf } from '@/server/episodes/service';
import { toPublicError } from '@/server/lib/errors';
import { randomInt } from 'node:crypto';
import { RUN_BOUNDS } from '@/lib/run-bounds';
import { boundedInt, temperatureSchema } from '@/server/lib/run-schemas';
import { z } from 'zod';
import type { Catalog } from '@/server/engine';
import {
  COLLECTION_IDS,
  createCurriculum,
  hTimeline,
  isCollectionId,
  parseCurriculumState,
  summarize,
  type CollectionId,
  type CurriculumState,
} from '@/server/engine/curriculum';
import type { EnvId } from '@/server/engine/types';
import type { CurriculumRun as RunRow, PrismaClient } from '@/server/generated/prisma/client';
import { EpisodeServiceError } from '@/server/episodes/types';
import { MAX_SEED, parse } from '@/server/episodes/inputs';
import { tableConnectionNames, tablePlayerFor } from '@/server/models/access';
import type { ConnectionStore } from '@/server/models/connection';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { BUILT_IN_AGENTS } from '@/server/models/agents';
import { actorOf, type TablePlayer } from '@/server/models/table';
import { inProcessPlayer, playableEnvs, type CurriculumStep, type EpisodePlayer } from './player';
import { createCurriculumStore } from './store';

/** Episodes one step call may play (the CLI calls step repeatedly for more). */
export const MAX_STEP_EPISODES = 5000;
const RECENT_EPISODES = 10;
/**
 * Episodes per transaction. Each transaction holds the run's state after its last episode and
 * those episodes, so what is stored is always consistent; a failure loses at most one batch.
 */
const COMMIT_EVERY = 25;

const createSchema = z.strictObject({
  name: z.string().trim().max(80).optional(),
  collection: z.string(),
  seed: z.int().min(0).max(MAX_SEED).nullish(),
  catalogId: z.string().min(1).max(200).optional(),
  sampling: z.enum(['uniform', 'round_robin']).optional(),
});

type CreateRunInput = z.input<typeof createSchema>;

const stepSchema = z.strictObject({
  episodes: z.int().min(1).max(MAX_STEP_EPISODES),
  /** a built-in agent ("oracle", "agent:heuristic") or a connection ("connection:<name>") */
  agent: z.string().min(1).max(200).default('oracle'),
  storeEpisodes: z.boolean().default(true),
  /** G, as a batch run's rollouts per seed */
  rolloutsPerTask: boundedInt(RUN_BOUNDS.rolloutsPerSeed).default(1),
  temperature: temperatureSchema.optional(),
});
type StepRunInput = z.input<typeof stepSchema>;

const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'run id has invalid characters');

export interface CurriculumServiceDeps {
  prisma: PrismaClient;
  getCatalog: (catalogId?: string) => Catalog;
  defaultCatalogId: string;
  /** Clock for window-change timestamps (tests may fix it). */
  now?: () => Date;
  /** Who plays the episodes (default: this thread, yielding between episodes; the app: a worker thread). */
  player?: EpisodePlayer;
  /** The SQL layer's connection to the same store (default: the process's for the client's URL). */
  db?: SqlDb;
  /** Connected models that may play (default: the ModelConnection table). */
  connections?: ConnectionStore;
}

/** Who may use a connection (server/models/access.ts); the default lets everything through (the CLI). */
export type RequireAdminFor = (what: string) => void;

interface StepJob {
  played: number;
  total: number;
  cancelled: boolean;
  startedAt: string;
  /** running, or how it ended (a finished job stays readable until the next one starts) */
  status: 'running' | 'done' | 'failed';
  passed: number;
  meanReward: number | null;
  /** the failure's message, when status is 'failed', or the infrastructure failure that stopped it */
  error: string | null;
}

type StepInfra = NonNullable<CurriculumStep['episode']['infra']> & { envId: EnvId; d: number; seed: number };

export function createCurriculumService(deps: CurriculumServiceDeps) {
  const store = createCurriculumStore(deps.prisma, deps.db ?? sqlDbOf(deps.prisma));
  const now = deps.now ?? (() => new Date());
  const player = deps.player ?? inProcessPlayer((id) => deps.getCatalog(id), now);
  const connections = deps.connections ?? createPrismaConnectionStore(deps.prisma);
  const anyone: RequireAdminFor = () => undefined;

  async function playerOf(key: string, requireAdminFor: RequireAdminFor): Promise<TablePlayer> {
    try {
      return await tablePlayerFor(connections, key, requireAdminFor);
    } catch (e) {
      if ((e as { code?: string }).code !== 'NOT_FOUND') throw e;
      const known = [
        ...BUILT_IN_AGENTS,
        ...(await tableConnectionNames(connections, true)).map((n) => `connection:${n}`),
      ];
      throw new EpisodeServiceError('BAD_INPUT', `unknown player "${key}"; choose one of ${known.join(', ')}`);
    }
  }
  /** Steps in progress, by run id (one at a time per run here; the stored count catches other processes). */
  const running = new Map<string, { job: StepJob; abort: AbortController }>();
  /** The last finished step of each run (its outcome, for the page that started it). */
  const finished = new Map<string, StepJob>();

  async function requireRow(id: string): Promise<RunRow> {
    const safeId = parse(idSchema, id, 'run id');
    const row = await store.getRun(safeId);
    if (!row) throw new EpisodeServiceError('NOT_FOUND', `no curriculum run with id "${safeId}"`);
    return row;
  }

  function stateOf(row: RunRow): CurriculumState {
    try {
      return parseCurriculumState(JSON.parse(row.state));
    } catch (e) {
      throw new Error(`curriculum run ${row.id} has an unreadable state: ${(e as Error).message}`, { cause: e });
    }
  }

  const summaryOf = (row: RunRow, state: CurriculumState) => ({
    id: row.id,
    name: row.name,
    collection: state.collection,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    episodes: state.episodes,
    windows: state.envs.map((e) => ({ envId: e.envId, l: e.l, h: e.h })),
  });

  async function getRun(id: string) {
    const row = await requireRow(id);
    const state = stateOf(row);
    const [recent, outcomes] = await Promise.all([
      store.recentEpisodes(row.id, RECENT_EPISODES),
      store.outcomes(row.id),
    ]);
    return {
      ...summaryOf(row, state),
      seed: row.seed,
      catalogId: row.catalogId,
      state,
      /** per env: window, counters at h, recent pass rate */
      envs: summarize(state),
      /** h of every env at each change point, for the chart */
      timeline: hTimeline(state),
      /** envs of the collection the engine can run now; the others are not played yet */
      playable: playableEnvs(state),
      /** the run's latest stored episodes, newest first */
      recentEpisodes: recent.items,
      storedEpisodes: recent.total,
      /** pass rate and mean reward over the stored episodes, in slices (the progress chart) */
      outcomes,
    };
  }

  /**
   * Starts a step: checks the input, the player and the run, refuses a run already playing here,
   * and plays in the background; `done` settles when the step has stopped (its job records how).
   */
  async function beginStep(
    id: string,
    input: StepRunInput,
    requireAdminFor: RequireAdminFor,
    onProgress?: (p: { step: CurriculumStep; state: CurriculumState }) => void,
  ) {
    const inp = parse(stepSchema, input, 'step run');
    const chosen = await playerOf(inp.agent, requireAdminFor);
    const row = await requireRow(id);
    if (running.has(row.id))
      throw new EpisodeServiceError('CONFLICT', `curriculum run ${row.id} is already playing; cancel it or wait`);
    const job: StepJob = {
      played: 0,
      total: Math.ceil(inp.episodes / inp.rolloutsPerTask) * inp.rolloutsPerTask, // whole groups of G
      cancelled: false,
      startedAt: now().toISOString(),
      status: 'running',
      passed: 0,
      meanReward: null,
      error: null,
    };
    const abort = new AbortController();
    running.set(row.id, { job, abort });
    const done = playStep(row, inp, chosen, job, abort.signal, onProgress).then(
      (result) => ((job.status = 'done'), result),
      (e) => {
        job.status = 'failed';
        job.error = toPublicError(e).message; // the page shows it: an internal error only by its log id
        throw e;
      },
    );
    void done
      .finally(() => {
        running.delete(row.id);
        finished.set(row.id, job);
      })
      .catch(() => undefined);
    return { job, done };
  }

  async function playStep(
    row: RunRow,
    inp: z.output<typeof stepSchema>,
    chosen: TablePlayer,
    job: StepJob,
    signal: AbortSignal,
    onProgress?: (p: { step: CurriculumStep; state: CurriculumState }) => void,
  ) {
    let state = stateOf(row);
    const playable = playableEnvs(state);
    if (playable.length === 0) {
      throw new EpisodeServiceError(
        'BAD_INPUT',
        `none of ${state.collection}'s environments (${state.envs.map((e) => e.envId).join(', ')}) can be played yet`,
      );
    }
    /** window changes during this step */
    const moves: Array<{ episode: number; envId: EnvId; l: number; h: number }> = [];
    let passed = 0;
    let rewardSum = 0;
    /** the infrastructure failure (a model not reached) that stopped the step; that episode is not scored */
    let infra: StepInfra | null = null;
    let savedEpisodes = state.episodes;
    const save = async (steps: CurriculumStep[]) => {
      try {
        await store.saveSteps({
          runId: row.id,
          prevEpisodes: savedEpisodes,
          state,
          steps,
          trainStep: row.episodeCount,
          player: actorOf(chosen),
          catalogId: row.catalogId,
          store: inp.storeEpisodes,
        });
      } catch (e) {
        if ((e as { code?: string }).code !== 'P2025') throw e;
        throw new EpisodeServiceError(
          'CONFLICT',
          `curriculum run ${row.id} was advanced by another writer; reload and try again`,
        );
      }
      for (const step of steps) onProgress?.({ step, state: step.outcome?.state ?? state });
      savedEpisodes = state.episodes;
    };
    const playJob = {
      state,
      runSeed: row.seed,
      player: chosen,
      catalogId: row.catalogId,
      playable,
      episodes: inp.episodes,
      rolloutsPerTask: inp.rolloutsPerTask,
      temperature: inp.temperature,
      batchSize: COMMIT_EVERY,
      caps: { maxEvents: MAX_EPISODE_EVENTS, maxBytes: MAX_EPISODE_BYTES },
    };
    await player(
      playJob,
      async (steps) => {
        for (const step of steps) {
          if (!step.outcome) {
            infra = { ...step.episode.infra!, envId: step.task.envId, d: step.task.d, seed: step.seed };
            continue;
          }
          state = step.outcome.state;
          job.played++;
          if (step.passed) passed++;
          rewardSum += step.reward;
          if (step.outcome.moved) {
            const w = state.envs.find((e) => e.envId === step.task.envId)!;
            moves.push({ episode: state.episodes, envId: w.envId, l: w.l, h: w.h });
          }
        }
        await save(steps);
        job.passed = passed;
        job.meanReward = job.played ? rewardSum / job.played : null;
        if (infra) job.error = infraMessage(chosen, infra);
      },
      signal,
    );
    return {
      run: await getRun(row.id),
      played: job.played,
      passed,
      meanReward: job.meanReward,
      moves,
      skippedEnvs: state.envs.map((e) => e.envId).filter((e) => !playable.includes(e)),
      /** stopped early by cancel() */
      cancelled: job.cancelled,
      infra: infra as StepInfra | null, // (set in the batch callback, which the compiler does not follow)
    };
  }

  return {
    /** The players a run may use: built-in agents, and the connections this caller may play. */
    players: async (admin: boolean) => ({
      agents: [...BUILT_IN_AGENTS],
      connections: await tableConnectionNames(connections, admin),
    }),
    collections: (): Array<{ id: CollectionId; envs: EnvId[] }> =>
      COLLECTION_IDS.map((id) => ({ id, envs: createCurriculum(id).envs.map((e) => e.envId) })),

    async createRun(input: CreateRunInput) {
      const inp = parse(createSchema, input, 'create run');
      if (!isCollectionId(inp.collection)) {
        throw new EpisodeServiceError(
          'BAD_INPUT',
          `unknown collection "${inp.collection}"; choose one of ${COLLECTION_IDS.join(', ')}`,
        );
      }
      const catalogId = inp.catalogId ?? deps.defaultCatalogId;
      try {
        deps.getCatalog(catalogId);
      } catch (e) {
        throw new EpisodeServiceError('BAD_INPUT', (e as Error).message);
      }
      const state = createCurriculum(inp.collection, inp.sampling ? { sampling: inp.sampling } : {});
      const name = inp.name || `${inp.collection} · ${now().toISOString().slice(0, 16).replace('T', ' ')}`;
      const id = await store.createRun({
        name,
        collection: inp.collection,
        seed: inp.seed ?? randomInt(0, MAX_SEED),
        catalogId,
        state,
      });
      return getRun(id);
    },

    getRun,

    async listRuns(limit = 50) {
      const rows = await store.listRuns(Math.min(Math.max(1, limit), 200));
      return rows.map((r) => summaryOf(r, stateOf(r)));
    },

    /**
     * Plays a step and answers when it is done (the CLI, scripts): `episodes` episodes, the state
     * (and, by default, the episodes) saved every COMMIT_EVERY; `onProgress` sees every saved step.
     */
    async stepRun(
      id: string,
      input: StepRunInput,
      onProgress?: (p: { step: CurriculumStep; state: CurriculumState }) => void,
      requireAdminFor: RequireAdminFor = anyone,
    ) {
      return (await beginStep(id, input, requireAdminFor, onProgress)).done;
    },

    /**
     * Starts a step in the background and returns at once (the page's Play): the episodes are
     * played off this thread, progress() tells how far it is and cancel() stops it. Bad input
     * and a run that is already playing are refused here.
     */
    async startStep(id: string, input: StepRunInput, requireAdminFor: RequireAdminFor = anyone): Promise<StepJob> {
      const { job, done } = await beginStep(id, input, requireAdminFor);
      done.catch(() => undefined); // recorded on the job, read through progress()
      return { ...job };
    },

    /** How far a step is: the one in progress, else the last one that finished (null: none yet). */
    progress(id: string): StepJob | null {
      const job = running.get(id)?.job ?? finished.get(id);
      return job ? { ...job } : null;
    },

    /** Asks a step in progress to stop after the current episode; what it played is kept. */
    cancel(id: string): boolean {
      const step = running.get(id);
      if (!step) return false;
      step.job.cancelled = true;
      step.abort.abort();
      return true;
    },
  };
}

/** What the page shows when an infrastructure failure stopped a step. */
function infraMessage(player: TablePlayer, infra: StepInfra): string {
  const who = player.kind === 'model' ? `model "${player.connection.name}"` : `agent "${player.agent}"`;
  return (
    `stopped: ${who} failed on ${infra.envId} d ${infra.d} (${infra.kind}: ${infra.message}). ` +
    'That episode is stored as infrastructure-aborted and not scored; the windows did not move.'
  );
}

export type CurriculumService = ReturnType<typeof createCurriculumService>;
