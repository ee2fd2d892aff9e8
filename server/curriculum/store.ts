// Persistence of curriculum runs. One transaction per batch of played episodes writes the
// run's new state and the episodes (through the episode writer, server/episodes/writer.ts, so
// /episodes lists them and the replay rebuilds them). The run update is conditional on the
// episode count it started from, so two writers can never both advance the same state.
import type { CurriculumState } from '@/server/engine/curriculum';
import type { CurriculumRun as RunRow, PrismaClient } from '@/server/generated/prisma/client';
import type { SqlDb } from '@/server/db/sql';
import { curriculumOutcomeRows, curriculumRecentEpisodes } from '@/server/episodes/queries';
import { episodeStatements } from '@/server/episodes/writer';
import type { EpisodeSummary } from '@/server/episodes/types';
import type { CurriculumStep } from './player';
import { playedEpisodeRows } from '@/server/episodes/episode-row';

export interface NewRunRecord {
  name: string;
  collection: string;
  seed: number;
  catalogId: string;
  state: CurriculumState;
}

export interface SaveStepsArgs {
  runId: string;
  prevEpisodes: number;
  state: CurriculumState;
  steps: CurriculumStep[];
  /** the episodes' train step: the run's episode count when the step began (the window chart's axis) */
  trainStep: number;
  /** the actor of every turn: a built-in agent's name or "model:<connection>" */
  player: string;
  catalogId: string;
  store: boolean;
}

/** Runs through Prisma; a batch of played episodes through the SQL layer (`db`), in one transaction. */
export function createCurriculumStore(prisma: PrismaClient, db: SqlDb) {
  const writes = episodeStatements(db);
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
      const stale = () => Object.assign(new Error(`curriculum run ${args.runId} moved on`), { code: 'P2025' });
      await db.batch([
        {
          sql: `UPDATE "CurriculumRun" SET "state" = ?, "episodeCount" = ?, "updatedAt" = ? WHERE "id" = ? AND "episodeCount" = ?`,
          args: [
            JSON.stringify(args.state),
            args.state.episodes,
            db.timestamp(new Date()),
            args.runId,
            args.prevEpisodes,
          ],
          expect: { changes: 1, error: stale },
        },
        ...(args.store
          ? args.steps.flatMap((step) => {
              const link = { curriculumRunId: args.runId };
              const { episode, events, actions } = playedEpisodeRows(step.episode, {
                ...args,
                actor: args.player,
                link,
                // a group's rollouts share the index of its task's first episode, unique in the run
                group:
                  step.episode.cell.rollout === undefined ? null : `task-${step.index - step.episode.cell.rollout}`,
              });
              return writes.newEpisode(episode, events, actions);
            })
          : []),
      ]);
    },

    /**
     * Pass rate and mean reward over the run's stored episodes, in order, in at most `points`
     * equal slices; `episode` is the number of episodes up to the slice's end.
     */
    async outcomes(runId: string, points = 60): Promise<RunOutcomePoint[]> {
      const rows = await curriculumOutcomeRows(db, runId);
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

    recentEpisodes: (runId: string, limit: number): Promise<{ items: EpisodeSummary[]; total: number }> =>
      curriculumRecentEpisodes(db, runId, limit),
  };
}

export interface RunOutcomePoint {
  episode: number;
  passRate: number;
  meanReward: number;
}
