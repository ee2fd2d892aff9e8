// Who plays a curriculum step's episodes: in this thread (tests, the CLI) or in a worker thread
// (the app: server/curriculum/worker-player.ts), so a 1000-episode step never holds the server's
// event loop. Either way the episodes come back in batches, in order, and a batch is handed over
// only once the previous one was written (at most one batch is played ahead of the writer).
import type { CurriculumState } from '@/server/engine/curriculum';
import type { Catalog } from '@/server/engine';
import type { EnvId } from '@/server/engine/types';
import { findAgent } from './agents';
import { playCurriculumEpisode, type CurriculumStep } from './runner';

export interface PlayJob {
  state: CurriculumState;
  runSeed: number;
  /** a built-in agent's name (checked by the service before) */
  agent: string;
  catalogId: string;
  playable: EnvId[];
  episodes: number;
  batchSize: number;
}

export interface EpisodePlayer {
  /**
   * Plays up to `job.episodes` episodes from `job.state`, calling `onBatch` with every batch of
   * `job.batchSize` (the last may be shorter) and waiting for it. Stops after the current
   * episode once `signal` is aborted.
   */
  play(job: PlayJob, onBatch: (steps: CurriculumStep[]) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** Lets other requests run between two episodes. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface PlayHooks {
  /** Asked before every episode: false stops the loop (a cancel) after the episode in hand. */
  mayGoOn: () => boolean;
  /** Receives every full batch and the last, shorter one; the loop waits for it. */
  onBatch: (steps: CurriculumStep[]) => void | Promise<void>;
  /** Runs after every episode (the in-process player lets other requests run). */
  afterEpisode?: () => Promise<void>;
  at?: () => Date;
}

/** The one play loop of a curriculum step, whichever thread runs it. */
export async function playEpisodes(job: PlayJob, catalog: Catalog, hooks: PlayHooks): Promise<void> {
  const agent = findAgent(job.agent);
  if (!agent) throw new Error(`unknown agent "${job.agent}"`);
  let state = job.state;
  let batch: CurriculumStep[] = [];
  for (let i = 0; i < job.episodes && hooks.mayGoOn(); i++) {
    const step = playCurriculumEpisode({
      state,
      runSeed: job.runSeed,
      agent,
      catalog,
      playable: job.playable,
      at: (hooks.at?.() ?? new Date()).toISOString(),
    });
    state = step.outcome.state;
    batch.push(step);
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
      playEpisodes(job, getCatalog(job.catalogId), {
        mayGoOn: () => !signal.aborted,
        onBatch,
        afterEpisode: yieldToEventLoop,
        at,
      }),
  };
}
