// The process-wide episode service (default Prisma client and catalog registry).
import { prisma } from '@/server/db';
import { DEFAULT_CATALOG_ID, getCatalog, onCatalogEvicted } from '@/server/catalogs';
import { createEpisodeService, type EpisodeService } from './service';

const g = globalThis as unknown as { __ecomEpisodeService?: EpisodeService };

export const episodeService: EpisodeService =
  g.__ecomEpisodeService ?? createEpisodeService({ prisma, getCatalog, defaultCatalogId: DEFAULT_CATALOG_ID });
if (!g.__ecomEpisodeService) onCatalogEvicted((id) => episodeService.forgetCatalog(id));
g.__ecomEpisodeService = episodeService;

export { EpisodeServiceError } from './types';
export type { EpisodeView, EpisodeSummary, HiddenGoal, WorldView, StartEpisodeInput } from './types';
