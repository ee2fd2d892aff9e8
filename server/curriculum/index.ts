// The process-wide curriculum service (default Prisma client and catalog registry).
import { prisma } from '@/server/db';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { createCurriculumService, type CurriculumService } from './service';

const g = globalThis as unknown as { __ecomCurriculumService?: CurriculumService };

export const curriculumService: CurriculumService =
  g.__ecomCurriculumService ?? createCurriculumService({ prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID });
g.__ecomCurriculumService = curriculumService;

export type { CurriculumRunSummary, CurriculumRunView, StepRunResult } from './types';
