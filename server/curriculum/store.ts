// Prisma persistence of curriculum runs. One transaction per batch of played episodes writes
// the episodes (same row layout as server/episodes/store.ts, so /episodes lists it and the
// replay rebuilds it) and the run's new state; on SQLite that transaction is a synchronous one
// through the rows module (sqlite-batch.ts), on PostgreSQL Prisma's. The run update is conditional on the
// episode count it started from, so two writers can never both advance the same state.
import type { Database } from 'better-sqlite3';
import type { CurriculumState } from '@/server/engine/curriculum';
import type { CurriculumRun as RunRow, PrismaClient } from '@/server/generated/prisma/client';
import { toSummary } from '@/server/episodes/store';
import type { EpisodeSummary } from '@/server/episodes/types';
import type { CurriculumStep } from './runner';
import { curriculumEpisodeRows } from './episode-row';
import { sqliteBatchWriter } from './sqlite-batch';

export interface NewRunRecord {
  name: string;
  collection: string;
  seed: number;
  catalogId: string;
  state: CurriculumState;
}

/** A batch's transaction: up to 30 s to finish, and to wait for a step's transaction to end. */
const BATCH_TX_LIMITS = { timeout: 30_000, maxWait: 10_000 };

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

async function insertEpisode(tx: Tx, run: { runId: string; catalogId: string; player: string }, step: CurriculumStep) {
  const { episode, events, actions } = curriculumEpisodeRows(step, run);
  await tx.episode.create({
    data: {
      ...episode,
      // createMany: one statement per table instead of one per row (a batch of 25 episodes held the
      // server thread for seconds under load)
      events: { createMany: { data: events } },
      actions: { createMany: { data: actions } },
    },
    select: { id: true },
  });
}

export interface SaveStepsArgs {
  runId: string;
  prevEpisodes: number;
  state: CurriculumState;
  steps: CurriculumStep[];
  player: string;
  catalogId: string;
  store: boolean;
}

/**
 * `sqlite`: a connection to the same SQLite file; batches are then written through it in one
 * synchronous transaction (server/curriculum/sqlite-batch.ts). Without it (PostgreSQL), Prisma.
 */
export function createCurriculumStore(prisma: PrismaClient, opts: { sqlite?: Database } = {}) {
  const sqliteBatch = opts.sqlite ? sqliteBatchWriter(opts.sqlite) : null;
  return {
    async createRun(rec: NewRunRecord): Promise<string> {
      const row = await prisma.curriculumRun.create({
        data: { ...rec, state: JSON.stringify(rec.state), episodeCount: rec.state.episodes },
        select: { id: true },
      });
      return row.id;
    },

    getRun(id: string): Promise<RunRow | null> {
      return prisma.curriculumRun.findUnique({ where: { id } });
    },

    listRuns(limit: number): Promise<RunRow[]> {
      return prisma.curriculumRun.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
    },

    /**
     * A batch of played episodes in ONE transaction: the run's new state, conditional on the
     * episode count the batch started from (else Prisma's P2025), then the episodes (when `store`).
     */
    async saveSteps(args: SaveStepsArgs): Promise<void> {
      if (sqliteBatch) return sqliteBatch.saveSteps(args);
      await prisma.$transaction(async (tx) => {
        await tx.curriculumRun.update({
          where: { id: args.runId, episodeCount: args.prevEpisodes },
          data: { state: JSON.stringify(args.state), episodeCount: args.state.episodes },
        });
        if (args.store) {
          for (const step of args.steps) await insertEpisode(tx, args, step);
        }
      }, BATCH_TX_LIMITS);
    },

    /**
     * Pass rate and mean reward over the run's stored episodes, in order, in at most `points`
     * equal slices; `episode` is the number of episodes up to the slice's end.
     */
    async outcomes(runId: string, points = 60): Promise<RunOutcomePoint[]> {
      const rows = await prisma.episode.findMany({
        where: { curriculumRunId: runId, status: 'done' },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { reward: true, isCorrect: true },
      });
      const size = Math.max(1, Math.ceil(rows.length / points));
      const out: RunOutcomePoint[] = [];
      for (let i = 0; i < rows.length; i += size) {
        const slice = rows.slice(i, i + size);
        out.push({
          episode: i + slice.length,
          passRate: slice.filter((r) => r.isCorrect).length / slice.length,
          meanReward: slice.reduce((a, r) => a + (r.reward ?? 0), 0) / slice.length,
        });
      }
      return out;
    },

    async recentEpisodes(runId: string, limit: number): Promise<{ items: EpisodeSummary[]; total: number }> {
      const [rows, total] = await Promise.all([
        prisma.episode.findMany({
          where: { curriculumRunId: runId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit,
        }),
        prisma.episode.count({ where: { curriculumRunId: runId } }),
      ]);
      return { items: rows.map(toSummary), total };
    },
  };
}

export interface RunOutcomePoint {
  episode: number;
  passRate: number;
  meanReward: number;
}

export type CurriculumStore = ReturnType<typeof createCurriculumStore>;
