// The curriculum service: create runs, advance them by playing episodes with a built-in agent or
// a connected model (off the request thread, as batch runs play), and read them back. The state
// lives in CurriculumRun.state (JSON), written with the episodes it has seen, one transaction per
// batch of up to 25 episodes.
import type { SqlDb } from '@/server/db/sql';
import { sqlDbOf } from '@/server/episodes/service';
import { toPublicError } from '@/server/lib/errors';
import { createKeyedLock } from '@/server/lib/keyed-lock';
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
import { tableConnectionNames, tablePlayerFor } from '@/server/models/access';
import type { ConnectionStore } from '@/server/models/connection';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS } from '@/server/episodes/service';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { BUILT_IN_AGENTS } from '@/server/models/agents';
import { actorOf, type TablePlayer } from '@/server/models/table';
import { inProcessPlayer, type EpisodePlayer } from './player';
import { playableEnvs, type CurriculumStep } from './runner';
import { createCurriculumStore } from './store';
import type { CreateRunInput, CurriculumRunSummary, CurriculumRunView, StepRunInput, StepRunResult } from './types';

export const MAX_RUN_SEED = 2_147_483_647;
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
  seed: z.int().min(0).max(MAX_RUN_SEED).nullish(),
  catalogId: z.string().min(1).max(200).optional(),
  sampling: z.enum(['uniform', 'round_robin']).optional(),
});

const stepSchema = z.strictObject({
  episodes: z.int().min(1).max(MAX_STEP_EPISODES),
  /** a built-in agent ("oracle", "agent:heuristic") or a connection ("connection:<name>") */
  agent: z.string().min(1).max(200).default('oracle'),
  storeEpisodes: z.boolean().default(true),
  /** G, as a batch run's rollouts per seed */
  rolloutsPerTask: boundedInt(RUN_BOUNDS.rolloutsPerSeed).default(1),
  temperature: temperatureSchema.optional(),
});
/** Episodes a step plays: whole groups of G. */
const stepTotal = (inp: { episodes: number; rolloutsPerTask: number }) =>
  Math.ceil(inp.episodes / inp.rolloutsPerTask) * inp.rolloutsPerTask;

const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'run id has invalid characters');

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`).join('; ');
    throw new EpisodeServiceError('BAD_INPUT', `${what}: ${msg}`);
  }
  return r.data;
}

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

export interface StepJob {
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

export interface StepProgress {
  step: CurriculumStep;
  state: CurriculumState;
}

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
  /** Cancel signals of the steps in progress, by run id. */
  const aborts = new Map<string, AbortController>();
  /** Steps of one run are serialised in this process (the DB check catches other processes). */
  const withLock = createKeyedLock();
  /** Steps in progress, by run id: how far they are, and a cancel flag checked between episodes. */
  const running = new Map<string, StepJob>();
  /** The last finished step of each run (its outcome, for the page that started it). */
  const finished = new Map<string, StepJob>();
  /** Runs whose background step was started but has not taken its lock yet. */
  const starting = new Set<string>();
  const newJob = (total: number): StepJob => ({
    played: 0,
    total,
    cancelled: false,
    startedAt: now().toISOString(),
    status: 'running',
    passed: 0,
    meanReward: null,
    error: null,
  });

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

  function summaryOf(row: RunRow, state: CurriculumState): CurriculumRunSummary {
    return {
      id: row.id,
      name: row.name,
      collection: state.collection,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      episodes: state.episodes,
      windows: state.envs.map((e) => ({ envId: e.envId, l: e.l, h: e.h })),
    };
  }

  async function viewOf(row: RunRow): Promise<CurriculumRunView> {
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
      envs: summarize(state),
      timeline: hTimeline(state),
      playable: playableEnvs(state),
      recentEpisodes: recent.items,
      storedEpisodes: recent.total,
      outcomes,
    };
  }

  async function getRun(id: string): Promise<CurriculumRunView> {
    return viewOf(await requireRow(id));
  }

  const service = {
    /** The players a run may use: built-in agents, and the connections this caller may play. */
    players: async (admin: boolean) => ({
      agents: [...BUILT_IN_AGENTS],
      connections: await tableConnectionNames(connections, admin),
    }),
    collections: (): Array<{ id: CollectionId; envs: EnvId[] }> =>
      COLLECTION_IDS.map((id) => ({ id, envs: createCurriculum(id).envs.map((e) => e.envId) })),

    async createRun(input: CreateRunInput): Promise<CurriculumRunView> {
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
        seed: inp.seed ?? randomInt(0, MAX_RUN_SEED),
        catalogId,
        state,
      });
      return getRun(id);
    },

    getRun,

    async listRuns(limit = 50): Promise<CurriculumRunSummary[]> {
      const rows = await store.listRuns(Math.min(Math.max(1, limit), 200));
      return rows.map((r) => summaryOf(r, stateOf(r)));
    },

    /**
     * Plays `episodes` episodes with a built-in agent, saving the state (and, by default, the
     * episodes) every COMMIT_EVERY episodes. `onProgress` sees every step once it is saved.
     */
    async stepRun(
      id: string,
      input: StepRunInput,
      onProgress?: (p: StepProgress) => void,
      startedJob?: StepJob,
      requireAdminFor: RequireAdminFor = anyone,
    ): Promise<StepRunResult> {
      const inp = parse(stepSchema, input, 'step run');
      const chosen = await playerOf(inp.agent, requireAdminFor);
      const safeId = parse(idSchema, id, 'run id');
      return withLock(safeId, async () => {
        const job = startedJob ?? newJob(stepTotal(inp));
        running.set(safeId, job);
        try {
          const res = await runSteps(job);
          job.status = 'done';
          return res;
        } catch (e) {
          job.status = 'failed';
          job.error = toPublicError(e).message; // the page shows it: an internal error only by its log id
          throw e;
        } finally {
          running.delete(safeId);
          finished.set(safeId, job);
        }
      });

      async function runSteps(job: StepJob): Promise<StepRunResult> {
        const row = await requireRow(safeId);
        let state = stateOf(row);
        const playable = playableEnvs(state);
        if (playable.length === 0) {
          throw new EpisodeServiceError(
            'BAD_INPUT',
            `none of ${state.collection}'s environments (${state.envs.map((e) => e.envId).join(', ')}) can be played yet`,
          );
        }
        const moves: StepRunResult['moves'] = [];
        let passed = 0;
        let scored = 0;
        let rewardSum = 0;
        let infra: StepRunResult['infra'] = null;
        let pending: CurriculumStep[] = [];
        let savedState = state;
        const commit = async () => {
          if (pending.length === 0) return;
          try {
            await store.saveSteps({
              runId: row.id,
              prevEpisodes: savedState.episodes,
              state,
              steps: pending,
              trainStep: row.episodeCount,
              player: actorOf(chosen),
              catalogId: row.catalogId,
              store: inp.storeEpisodes,
            });
          } catch (e) {
            if ((e as { code?: string }).code === 'P2025') {
              throw new EpisodeServiceError(
                'CONFLICT',
                `curriculum run ${row.id} was advanced by another writer; reload and try again`,
              );
            }
            throw e;
          }
          for (const step of pending) onProgress?.({ step, state: step.outcome?.state ?? state });
          savedState = state;
          pending = [];
        };
        const abort = new AbortController();
        aborts.set(safeId, abort);
        if (job.cancelled) abort.abort();
        try {
          await player.play(
            {
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
            },
            async (steps) => {
              for (const step of steps) {
                pending.push(step);
                if (!step.outcome) {
                  infra = { ...step.episode.infra!, envId: step.task.envId, d: step.task.d, seed: step.seed };
                  continue;
                }
                state = step.outcome.state;
                scored++;
                if (step.passed) passed++;
                rewardSum += step.reward;
                if (step.outcome.moved) {
                  const w = state.envs.find((e) => e.envId === step.task.envId)!;
                  moves.push({ episode: state.episodes, envId: w.envId, l: w.l, h: w.h });
                }
              }
              await commit();
              job.played = scored;
              job.passed = passed;
              job.meanReward = scored ? rewardSum / scored : null;
              if (infra) job.error = infraMessage(chosen, infra);
            },
            abort.signal,
          );
        } finally {
          aborts.delete(safeId);
        }
        const skippedEnvs = state.envs.map((e) => e.envId).filter((e) => !playable.includes(e));
        return {
          run: await getRun(row.id),
          played: job.played,
          passed,
          meanReward: job.played ? rewardSum / job.played : null,
          moves,
          skippedEnvs,
          cancelled: job.cancelled,
          infra,
        };
      }
    },

    /**
     * Starts playing in the background and returns at once (the page's Play): the episodes run
     * between other requests (the loop yields after each), progress() tells how far it is and
     * cancel() stops it. Bad input and a run that is already playing are refused here.
     */
    async startStep(id: string, input: StepRunInput, requireAdminFor: RequireAdminFor = anyone): Promise<StepJob> {
      const inp = parse(stepSchema, input, 'step run');
      await playerOf(inp.agent, requireAdminFor);
      const row = await requireRow(id);
      if (running.has(row.id) || starting.has(row.id))
        throw new EpisodeServiceError('CONFLICT', `curriculum run ${row.id} is already playing; cancel it or wait`);
      const job = newJob(stepTotal(inp));
      starting.add(row.id);
      running.set(row.id, job);
      void service
        .stepRun(row.id, inp, undefined, job, requireAdminFor)
        .catch((e) => {
          // stepRun records its own failures on the job; this catches one before it took the job
          if (running.get(row.id) !== job) return;
          running.delete(row.id);
          Object.assign(job, { status: 'failed', error: toPublicError(e).message });
          finished.set(row.id, job);
        })
        .finally(() => starting.delete(row.id));
      return { ...job };
    },

    /** How far a step is: the one in progress, else the last one that finished (null: none yet). */
    progress(id: string): StepJob | null {
      const job = running.get(id) ?? finished.get(id);
      return job ? { ...job } : null;
    },

    /** Asks a step in progress to stop after the current episode; what it played is kept. */
    cancel(id: string): boolean {
      const job = running.get(id);
      if (!job) return false;
      job.cancelled = true;
      aborts.get(id)?.abort();
      return true;
    },
  };
  return service;
}

/** What the page shows when an infrastructure failure stopped a step. */
function infraMessage(player: TablePlayer, infra: NonNullable<StepRunResult['infra']>): string {
  const who = player.kind === 'model' ? `model "${player.connection.name}"` : `agent "${player.agent}"`;
  return (
    `stopped: ${who} failed on ${infra.envId} d ${infra.d} (${infra.kind}: ${infra.message}). ` +
    'That episode is stored as infrastructure-aborted and not scored; the windows did not move.'
  );
}

export type CurriculumService = ReturnType<typeof createCurriculumService>;
