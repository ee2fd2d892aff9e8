// Batch runs stored as episodes: a ModelRun row, and one stored episode per (env, d, seed)
// tagged with the run, played by a model or a built-in agent through the episode service.
// Summaries count only scored episodes; infrastructure failures are counted apart.

import type { Catalog, EnvId } from '@/server/engine';
import type { EpisodeService } from '@/server/episodes/service';
import type { PrismaClient } from '@/server/generated/prisma/client';
import { expandCells } from './batch';
import { actorOf, playTableEpisode, type TablePlayer } from './table';

export interface RunSpec {
  envs: EnvId[];
  ds: number[];
  seeds: number[];
  concurrency: number;
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

const live = new Map<string, AbortController>();

/** Creates the run and plays it in the background; returns its id at once. */
export async function startStoredRun(
  deps: { prisma: PrismaClient; service: EpisodeService; catalog: (id: string) => Catalog },
  player: TablePlayer,
  spec: RunSpec,
): Promise<{ id: string; finished: Promise<void> }> {
  const cells = expandCells(spec.envs, spec.ds, spec.seeds);
  const run = await deps.prisma.modelRun.create({
    data: { player: actorOf(player), spec: JSON.stringify(spec), total: cells.length },
  });
  const controller = new AbortController();
  live.set(run.id, controller);
  let next = 0;
  const worker = async () => {
    while (next < cells.length && !controller.signal.aborted) {
      const cell = cells[next++];
      const started = await deps.service.startEpisode({ ...cell, player: actorOf(player) });
      await deps.prisma.episode.update({ where: { id: started.id }, data: { runId: run.id } });
      const last = await playTableEpisode(deps.service, deps.catalog, started.id, player, {
        signal: controller.signal,
      }).catch((e: Error) => ({ ok: false as const, infra: { kind: 'internal', message: e.message } }));
      await deps.prisma.modelRun.update({
        where: { id: run.id },
        data: { done: { increment: 1 }, ...(last.ok ? {} : { infraFailures: { increment: 1 } }) },
      });
    }
  };
  const finished = Promise.all(Array.from({ length: Math.max(1, spec.concurrency) }, worker)).then(async () => {
    live.delete(run.id);
    await deps.prisma.modelRun.update({
      where: { id: run.id },
      data: { state: controller.signal.aborted ? 'cancelled' : 'finished' },
    });
  });
  return { id: run.id, finished };
}

/** Stops starting episodes; running ones stop after their current turn. */
export function cancelStoredRun(id: string): boolean {
  const c = live.get(id);
  c?.abort();
  return Boolean(c);
}

/** Pass rate and mean reward per env × d over scored episodes; infrastructure failures apart. */
export async function runStats(prisma: PrismaClient, runId: string): Promise<RunCellStats[]> {
  const rows = await prisma.episode.findMany({
    where: { runId },
    select: { envId: true, d: true, status: true, breakdown: true, isCorrect: true, infraError: true },
  });
  const cells = new Map<string, RunCellStats & { sum: number; passed: number }>();
  for (const r of rows) {
    const key = `${r.envId}|${r.d}`;
    const c = cells.get(key) ?? {
      envId: r.envId,
      d: r.d,
      episodes: 0,
      scored: 0,
      passRate: null,
      meanReward: null,
      infraFailures: 0,
      sum: 0,
      passed: 0,
    };
    cells.set(key, c);
    c.episodes++;
    if (r.infraError) c.infraFailures++;
    else if (r.status === 'done' && r.breakdown) {
      c.scored++;
      c.sum += (JSON.parse(r.breakdown) as { total: number }).total;
      if (r.isCorrect) c.passed++;
    }
  }
  return [...cells.values()]
    .map(({ sum, passed, ...c }) => ({
      ...c,
      passRate: c.scored ? passed / c.scored : null,
      meanReward: c.scored ? sum / c.scored : null,
    }))
    .sort((a, b) => a.envId.localeCompare(b.envId) || a.d - b.d);
}

export interface FlippedTask {
  envId: string;
  d: number;
  seed: number;
  a: { id: string; isCorrect: boolean };
  b: { id: string; isCorrect: boolean };
}

/** Tasks (env, d, seed) scored in both runs whose pass/fail differs. */
export async function flippedTasks(prisma: PrismaClient, runA: string, runB: string): Promise<FlippedTask[]> {
  const scored = (runId: string) =>
    prisma.episode.findMany({
      where: { runId, status: 'done', infraError: null },
      select: { id: true, envId: true, d: true, seed: true, isCorrect: true },
    });
  const [a, b] = await Promise.all([scored(runA), scored(runB)]);
  const key = (e: { envId: string; d: number; seed: number }) => `${e.envId}|${e.d}|${e.seed}`;
  const byKey = new Map(a.map((e) => [key(e), e]));
  return b
    .flatMap((eb) => {
      const ea = byKey.get(key(eb));
      return ea && Boolean(ea.isCorrect) !== Boolean(eb.isCorrect)
        ? [
            {
              envId: eb.envId,
              d: eb.d,
              seed: eb.seed,
              a: { id: ea.id, isCorrect: Boolean(ea.isCorrect) },
              b: { id: eb.id, isCorrect: Boolean(eb.isCorrect) },
            },
          ]
        : [];
    })
    .sort((x, y) => x.envId.localeCompare(y.envId) || x.d - y.d || x.seed - y.seed);
}
