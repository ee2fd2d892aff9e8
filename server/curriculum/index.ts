// The process-wide curriculum service (default Prisma client and catalog registry). Its episodes
// are played in a worker thread: a long step never holds the server's event loop.
import { prisma } from '@/server/db';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { workerPlayer } from './player';
import { createCurriculumService, type CurriculumService } from './service';
import { lazyObject } from '@/server/lib/lazy';

const g = globalThis as unknown as { __ecomCurriculumService?: CurriculumService };

/** Made on first use: importing this module opens no database (`next build` imports every route). */
export const curriculumService: CurriculumService = lazyObject(
  () =>
    (g.__ecomCurriculumService ??= createCurriculumService({
      prisma,
      getCatalog,
      defaultCatalogId: DEFAULT_CATALOG_ID,
      player: workerPlayer(),
    })),
);
