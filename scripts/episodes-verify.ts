// npm run episodes:verify: replays every stored episode (DATABASE_URL, default prisma/dev.db) and
// lists the ones whose replay diverges from their stored log. Exit code 1 when any does.
import { episodeService } from '@/server/episodes';
import { verifyEpisodes } from './episodes-verify-lib';

const report = await verifyEpisodes(episodeService, (n) => process.stderr.write(`\rchecked ${n}`));
process.stderr.write('\n');
for (const { id, problem } of report.diverged) console.log(`DIVERGED ${id}: ${problem}`);
for (const { id, problem } of report.skipped) console.log(`skipped  ${id}: ${problem}`);
console.log(
  `${report.checked} episodes replayed: ${report.diverged.length} diverged, ${report.skipped.length} not replayable by this engine`,
);
process.exit(report.diverged.length ? 1 : 0);
