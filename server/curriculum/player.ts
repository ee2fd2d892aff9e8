// Who plays a curriculum step's episodes: in this thread (tests, the CLI) or in a worker thread
// (the app: server/curriculum/worker-player.ts), so a 1000-episode step never holds the server's
// event loop. Either way the episodes come back in batches, in order, and a batch is handed over
// only once the previous one was written (at most one batch is played ahead of the writer).
import type { CurriculumState } from '@/server/engine/curriculum';
import type { Catalog } from '@/server/engine';
import type { EnvId } from '@/server/engine/types';
import type { TablePlayer } from '@/server/models/table';
import { playCurriculumEpisode, type CurriculumStep, type EpisodeCaps } from './runner';

export interface PlayJob {
  state: CurriculumState;
  runSeed: number;
  /** a built-in agent or a connected model (a connection names its key's variable, never the key) */
  player: TablePlayer;
  catalogId: string;
  playable: EnvId[];
  episodes: number;
  batchSize: number;
  caps: EpisodeCaps;
}

export interface EpisodePlayer {
  /**
   * Plays up to `job.episodes` episodes from `job.state`, calling `onBatch` with every batch of
   * `job.batchSize` (the last may be shorter) and waiting for it. Stops after the current
   * episode once `signal` is aborted (a model's turn in flight is aborted), and after the
   * first infrastructure failure (that episode is in the last batch, unscored).
   */
  play(job: PlayJob, onBatch: (steps: CurriculumStep[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** Lets other requests run between two episodes. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface PlayHooks {
  signal: AbortSignal;
  /** Receives every full batch and the last, shorter one; the loop waits for it. */
  onBatch: (steps: CurriculumStep[]) => void | Promise<void>;
  /** Runs after every episode (the in-process player lets other requests run). */
  afterEpisode?: () => Promise<void>;
  at?: () => Date;
}

/** The one play loop of a curriculum step, whichever thread runs it. */
export async function playEpisodes(job: PlayJob, catalog: Catalog, hooks: PlayHooks): Promise<void> {
  let state = job.state;
  let batch: CurriculumStep[] = [];
  for (let i = 0; i < job.episodes && !hooks.signal.aborted; i++) {
    const step = await playCurriculumEpisode({
      state,
      runSeed: job.runSeed,
      player: job.player,
      catalog,
      caps: job.caps,
      playable: job.playable,
      at: (hooks.at?.() ?? new Date()).toISOString(),
      signal: hooks.signal,
    });
    if (!step) break;
    batch.push(step);
    if (!step.outcome) break; // an infrastructure failure: the next ones would most likely fail too
    state = step.outcome.state;
    if (batch.length >= job.batchSize) {
      await hooks.onBatch(batch);
      batch = [];
    }
    await hooks.afterEpisode?.();
  }
  if (batch.length > 0) await hooks.onBatch(batch);
}

/** Plays in this thread, yielding to the event loop after each episode. */
export function inProcessPlayer(getCatalog: (catalogId: string) => Catalog, at?: () => Date): EpisodePlayer {
  return {
    play: async (job, onBatch, signal) =>
      playEpisodes(job, getCatalog(job.catalogId), { signal, onBatch, afterEpisode: yieldToEventLoop, at }),
  };
}
