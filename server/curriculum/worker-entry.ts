// The curriculum's worker thread (server/lib/batch-worker.ts): plays a job's episodes with the
// pure engine and posts them back in batches. Loads no database and nothing of Next; its catalog
// is its own copy from the registry (server/catalogs.ts).
import { getCatalog } from '@/server/catalogs';
import { serveBatchJobs } from '@/server/lib/batch-worker';
import { inProcessPlayer } from './player';

serveBatchJobs(inProcessPlayer(getCatalog).play);
