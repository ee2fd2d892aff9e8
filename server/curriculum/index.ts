// The process-wide curriculum service (default Prisma client and catalog registry). Its episodes
// are played in a worker thread: a long step never holds the server's event loop.
import Database from 'better-sqlite3';
import path from 'node:path';
import { databaseUrlOf, prisma } from '@/server/db';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { boundSqliteCache } from '@/server/lib/sqlite-cache';
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
    sqlite: sqliteOf(databaseUrlOf(prisma)),
  });
g.__ecomCurriculumService = curriculumService;

/** Its own connection to the SQLite file the Prisma client uses (batches are written through it); none on PostgreSQL. */
function sqliteOf(url: string | undefined): Database.Database | undefined {
  return url?.startsWith('file:') ? boundSqliteCache(new Database(path.resolve(url.slice('file:'.length)))) : undefined;
}

export type { CurriculumRunSummary, CurriculumRunView, StepRunResult } from './types';
