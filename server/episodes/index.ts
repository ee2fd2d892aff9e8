// The process-wide episode service (default Prisma client and catalog registry).
import { prisma } from '@/server/db';
import { sqlDb } from '@/server/db/sql';
import { DEFAULT_CATALOG_ID, getCatalog, loadCatalog, onCatalogEvicted } from '@/server/catalogs';
import { createCustomerVoice } from '@/server/models/customer-voice';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { createEpisodeService, type EpisodeService } from './service';

const g = globalThis as unknown as { __ecomEpisodeService?: EpisodeService };

export const episodeService: EpisodeService =
  g.__ecomEpisodeService ??
  createEpisodeService({
    prisma,
    getCatalog,
    loadCatalog,
    defaultCatalogId: DEFAULT_CATALOG_ID,
    db: sqlDb(), // the same store as the Prisma client (DATABASE_URL)
    customerVoice: createCustomerVoice(createPrismaConnectionStore(prisma)),
  });
if (!g.__ecomEpisodeService) onCatalogEvicted((id) => episodeService.forgetCatalog(id));
g.__ecomEpisodeService = episodeService;

export { EpisodeServiceError } from './types';
export type { EpisodeView, EpisodeSummary, HiddenGoal, WorldView, StartEpisodeInput } from './types';

import { createRescoreService, type RescoreService } from './rescore-service';
const r = globalThis as unknown as { __ecomRescoreService?: RescoreService };
export const rescoreService: RescoreService = r.__ecomRescoreService ?? createRescoreService({ prisma, getCatalog });
r.__ecomRescoreService = rescoreService;
export type { RescoreView, ComponentDiff } from './rescore';
