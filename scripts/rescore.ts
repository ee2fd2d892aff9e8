// npm run rescore -- <episodeId> | --all [--include-current]
// Re-scores stored episodes under the current reward revision; the logic is in
// scripts/rescore-cli.ts.
import { getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { runRescoreCli } from './rescore-cli';
import { createRescoreService } from '@/server/episodes/rescore';

const service = createRescoreService({ prisma, getCatalog });
runRescoreCli(
  process.argv.slice(2),
  service,
  prisma,
  (l) => process.stdout.write(`${l}\n`),
  (l) => process.stderr.write(`${l}\n`),
)
  .then((code) => {
    process.exitCode = code;
  })
  .finally(() => prisma.$disconnect());
