// Who plays a curriculum step's episodes: in this thread (tests, the CLI) or in a worker thread
// (the app), so a 1000-episode step never holds the server's event loop. Either way the episodes
// come back in batches, in order, and a batch is handed over only once the previous one was
// written (at most one batch is played ahead of the writer).
import type { CurriculumState } from '@/server/engine/curriculum';
import type { Catalog } from '@/server/engine';
import type { EnvId } from '@/server/engine/types';
import { batchWorkerPlayer, yieldToEventLoop } from '@/server/lib/batch-worker';
import type { TablePlayer } from '@/server/models/table';
import { playCurriculumTask, type CurriculumStep, type EpisodeCaps } from './runner';

export interface PlayJob {
  state: CurriculumState;
  runSeed: number;
  /** a built-in agent or a connected model (a connection names its key's variable, never the key) */
  player: TablePlayer;
  catalogId: string;
  playable: EnvId[];
  /** episodes to play, in whole groups: ceil(episodes / G) tasks of G rollouts */
  episodes: number;
  /** G: rollouts per task (default 1: no groups) */
  rolloutsPerTask?: number;
  /** the player's sampling temperature (absent: a connection's own; a built-in agent's is 0) */
  temperature?: number;
  /** a batch holds whole groups: at least this many episodes, except the last */
  batchSize: number;
  caps: EpisodeCaps;
}

export interface EpisodePlayer {
  /**
   * Plays `job.episodes` episodes (whole groups) from `job.state`, calling `onBatch` with every
   * batch of whole groups (`job.batchSize` or a group more; the last may be shorter) and waiting
   * for it. Stops after the current group once `signal` is aborted (a model's turn in flight is
   * aborted and its group dropped), and after the first infrastructure failure (that episode is
   * in the last batch, unscored).
   */
  play(job: PlayJob, onBatch: (steps: CurriculumStep[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** The one play loop of a curriculum step, whichever thread runs it; other tasks run between episodes. */
export async function playEpisodes(
  job: PlayJob,
  catalog: Catalog,
  onBatch: (steps: CurriculumStep[]) => Promise<void>,
  signal: AbortSignal,
  at: () => Date = () => new Date(),
): Promise<void> {
  let state = job.state;
  let batch: CurriculumStep[] = [];
  for (let played = 0; played < job.episodes && !signal.aborted;) {
    const steps = await playCurriculumTask({
      state,
      runSeed: job.runSeed,
      player: job.player,
      catalog,
      caps: job.caps,
      rollouts: job.rolloutsPerTask,
      temperature: job.temperature,
      playable: job.playable,
      at: at().toISOString(),
      signal,
    });
    if (!steps) break;
    batch.push(...steps);
    played += steps.length;
    const last = steps.at(-1)!;
    if (!last.outcome) break; // an infrastructure failure: the next ones would most likely fail too
    state = last.outcome.state;
    if (batch.length >= job.batchSize) {
      await onBatch(batch);
      batch = [];
    }
    await yieldToEventLoop();
  }
  if (batch.length > 0) await onBatch(batch);
}

/** Plays in this thread (tests, the CLI; the worker's entry too). */
export function inProcessPlayer(getCatalog: (catalogId: string) => Catalog, at?: () => Date): EpisodePlayer {
  return { play: (job, onBatch, signal) => playEpisodes(job, getCatalog(job.catalogId), onBatch, signal, at) };
}

/** Plays each job in the batch worker thread, so a long step never holds the server's event loop. */
export const workerPlayer = (opts: { root?: string; idleMs?: number } = {}): EpisodePlayer =>
  batchWorkerPlayer<PlayJob, CurriculumStep[]>('curriculum', opts);
