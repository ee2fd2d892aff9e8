// The process-wide episode service (default Prisma client and catalog registry).
import { prisma } from '@/server/db';
import { sqlDb } from '@/server/db/sql';
import { DEFAULT_CATALOG_ID, getCatalog, loadCatalog, onCatalogEvicted } from '@/server/catalogs';
import { createCustomerVoice } from '@/server/models/customer-voice';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { createEpisodeService, type EpisodeService } from './service';
import { lazyObject } from '@/server/lib/lazy';

const g = globalThis as unknown as { __ecomEpisodeService?: EpisodeService };

function makeEpisodeService(): EpisodeService {
  if (g.__ecomEpisodeService) return g.__ecomEpisodeService;
  const service = createEpisodeService({
    prisma,
    getCatalog,
    loadCatalog,
    defaultCatalogId: DEFAULT_CATALOG_ID,
    db: sqlDb(), // the same store as the Prisma client (DATABASE_URL)
    customerVoice: createCustomerVoice(createPrismaConnectionStore(prisma)),
  });
  onCatalogEvicted((id) => service.forgetCatalog(id));
  return (g.__ecomEpisodeService = service);
}

/** Made on first use: importing this module opens no database (`next build` imports every route). */
export const episodeService: EpisodeService = lazyObject(makeEpisodeService);

export { EpisodeServiceError } from './types';
export type { EpisodeView, EpisodeSummary, HiddenGoal, WorldView, StartEpisodeInput } from './types';

import { createRescoreService, type RescoreService } from './rescore';
const r = globalThis as unknown as { __ecomRescoreService?: RescoreService };
export const rescoreService: RescoreService = lazyObject(
  () => (r.__ecomRescoreService ??= createRescoreService({ prisma, getCatalog })),
);
export type { RescoreView, ComponentDiff } from './rescore';
