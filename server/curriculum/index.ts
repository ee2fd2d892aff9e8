// The process-wide curriculum service (default Prisma client and catalog registry). Its episodes
// are played in a worker thread: a long step never holds the server's event loop.
import { prisma } from '@/server/db';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { createCurriculumService, type CurriculumService } from './service';
import { workerPlayer } from './worker-player';

const g = globalThis as unknown as { __ecomCurriculumService?: CurriculumService };

export const curriculumService: CurriculumService =
  g.__ecomCurriculumService ??
  createCurriculumService({
    prisma,
    getCatalog,
    defaultCatalogId: DEFAULT_CATALOG_ID,
    player: workerPlayer(),
  });
g.__ecomCurriculumService = curriculumService;

export type { CurriculumRunSummary, CurriculumRunView, StepRunResult } from './types';
