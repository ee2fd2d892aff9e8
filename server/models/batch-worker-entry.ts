// The batch worker thread (server/lib/batch-worker.ts): plays batch runs' cells and curriculum
// steps with the pure engine and posts the episodes back in batches. Loads no database and
// nothing of Next; its catalog is its own copy from the registry (server/catalogs.ts). API keys
// never cross the thread boundary: a connection names its key's environment variable, read here
// from the worker's copy of the server's environment when a request is sent.
import { getCatalog } from '@/server/catalogs';
import { inProcessPlayer, type CurriculumBatch } from '@/server/curriculum/player';
import { serveBatchJobs } from '@/server/lib/batch-worker';
import { inProcessRunPlayer, type RunBatch } from './run-player';

serveBatchJobs<RunBatch & CurriculumBatch>({
  run: inProcessRunPlayer(getCatalog),
  curriculum: inProcessPlayer(getCatalog),
});
