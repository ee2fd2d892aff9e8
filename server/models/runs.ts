// Batch runs stored as episodes: a ModelRun row, and one stored episode per (env, d, seed)
// tagged with the run, played by a model or a built-in agent. The episodes are played off the
// request thread (run-player.ts: a worker thread in the app) and written here in batches, each
// batch with the run's progress in one transaction. Summaries count only scored episodes;
// infrastructure failures are counted apart.

import type { EnvId } from '@/server/engine';
import { playedEpisodeRows } from '@/server/episodes/episode-row';
import { episodeStatements } from '@/server/episodes/writer';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS, sqlDbOf } from '@/server/episodes/service';
import { batchRunEpisodes } from '@/server/episodes/queries';
import type { SqlDb } from '@/server/db/sql';
import type { PrismaClient } from '@/server/generated/prisma/client';
import { cellStats, expandCells, type PlayedRunEpisode, type RunJob } from './run-play';
import type { RunPlayer } from './run-player';
import { actorOf, type TablePlayer } from './table';

export interface RunSpec {
  /** the name given at start (absent: defaultRunName, server/inspector/run-keys.ts) */
  name?: string;
  envs: EnvId[];
  ds: number[];
  seeds: number[];
  concurrency: number;
  /** G: rollouts per (env, d, seed), one GRPO group each (default 1: no groups) */
  rolloutsPerSeed?: number;
  /** the player's sampling temperature (absent: a connection's own; a built-in agent's is 0) */
  temperature?: number;
}

export interface RunCellStats {
  envId: string;
  d: number;
  episodes: number;
  /** finished and not stopped by an infrastructure failure */
  scored: number;
  passRate: number | null;
  meanReward: number | null;
  infraFailures: number;
}

/** Episodes per written batch, and the longest wait before a partial one is written (progress). */
export const RUN_BATCH = { size: 25, flushMs: 500 } as const;

const live = new Map<string, AbortController>();

/** Creates the run and plays it in the background; returns its id at once. */
export async function startStoredRun(
  deps: { prisma: PrismaClient; runPlayer: RunPlayer; catalogId: string; db?: SqlDb },
  player: TablePlayer,
  spec: RunSpec,
): Promise<{ id: string; finished: Promise<void> }> {
  const { prisma } = deps;
  const db = deps.db ?? sqlDbOf(prisma);
  const writes = episodeStatements(db);
  const g = spec.rolloutsPerSeed ?? 1;
  const cells = expandCells(spec.envs, spec.ds, spec.seeds).flatMap((c) =>
    g > 1 ? Array.from({ length: g }, (_, rollout) => ({ ...c, rollout })) : [c],
  );
  const actor = actorOf(player);
  const run = await prisma.modelRun.create({
    data: { player: actor, spec: JSON.stringify(spec), total: cells.length },
  });
  const controller = new AbortController();
  live.set(run.id, controller);
  const job: RunJob = {
    cells,
    player,
    temperature: spec.temperature,
    catalogId: deps.catalogId,
    concurrency: spec.concurrency,
    maxEvents: MAX_EPISODE_EVENTS,
    maxBytes: MAX_EPISODE_BYTES,
    batchSize: RUN_BATCH.size,
    flushMs: RUN_BATCH.flushMs,
  };
  const write = async (episodes: PlayedRunEpisode[]) => {
    const failures = episodes.filter((e) => e.infra).length;
    await db.batch([
      ...episodes.flatMap((e) => {
        const link = { runId: run.id };
        const { episode, events, actions } = playedEpisodeRows(e, { actor, catalogId: deps.catalogId, link });
        return writes.newEpisode(episode, events, actions);
      }),
      {
        sql: `UPDATE "ModelRun" SET "done" = "done" + ?, "infraFailures" = "infraFailures" + ?, "updatedAt" = ? WHERE "id" = ?`,
        args: [episodes.length, failures, db.timestamp(new Date()), run.id],
      },
    ]);
  };
  const end = (state: 'finished' | 'cancelled' | 'failed') => {
    live.delete(run.id);
    return prisma.modelRun.update({ where: { id: run.id }, data: { state } });
  };
  const finished = deps.runPlayer(job, write, controller.signal).then(
    async () => void (await end(controller.signal.aborted ? 'cancelled' : 'finished')),
    async (e: Error) => {
      await end('failed');
      throw e;
    },
  );
  return { id: run.id, finished };
}

/** Stops starting episodes; running ones stop after their current turn. */
export function cancelStoredRun(id: string): boolean {
  const c = live.get(id);
  c?.abort();
  return Boolean(c);
}

/** Pass rate and mean reward per env × d over the run's scored episodes (run-play.ts cellStats). */
export async function runStats(prisma: PrismaClient, runId: string): Promise<RunCellStats[]> {
  const rows = await batchRunEpisodes(sqlDbOf(prisma), runId);
  return cellStats(
    rows.map((r) => ({
      envId: r.envId,
      d: r.d,
      infra: Boolean(r.infraError),
      reward: r.status === 'done' && r.breakdown ? (JSON.parse(r.breakdown) as { total: number }).total : null,
      pass: Boolean(r.isCorrect),
    })),
  );
}
