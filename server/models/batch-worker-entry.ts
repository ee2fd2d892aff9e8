// The batch worker thread (server/lib/batch-worker.ts): plays batch runs' cells and curriculum
// steps with the pure engine and posts the episodes back in batches. Loads no database and
// nothing of Next; its catalog is its own copy from the registry (server/catalogs.ts). API keys
// never cross the thread boundary: a connection names its key's environment variable, read here
// from the worker's copy of the server's environment when a request is sent.
import { getCatalog } from '@/server/catalogs';
import { inProcessPlayer, type CurriculumStep, type PlayJob } from '@/server/curriculum/player';
import { serveBatchJobs } from '@/server/lib/batch-worker';
import type { PlayedRunEpisode, RunJob } from './run-play';
import { inProcessRunPlayer } from './run-player';

/** The kinds of job this worker plays: a batch run's cells, a curriculum step's episodes. */
export type BatchJobs = {
  run: { job: RunJob; batch: PlayedRunEpisode[] };
  curriculum: { job: PlayJob; batch: CurriculumStep[] };
};

serveBatchJobs<BatchJobs>({ run: inProcessRunPlayer(getCatalog).play, curriculum: inProcessPlayer(getCatalog).play });
