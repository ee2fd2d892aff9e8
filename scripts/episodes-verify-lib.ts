// `npm run episodes:verify` (scripts/episodes-verify.ts): replays every stored episode through the episode service's own
// rebuild (engine replay of the stored actions, compared event by event with the stored log)
// and reports the ones that diverge. Read-only; uses the service's public reads only.
import { isAppError } from '@/server/lib/errors';
import type { EpisodeService } from '@/server/episodes/service';

export interface VerifyReport {
  checked: number;
  diverged: Array<{ id: string; problem: string }>;
  /** Episodes this engine cannot replay (another engine version, an imported log). */
  skipped: Array<{ id: string; problem: string }>;
}

export async function verifyEpisodes(
  service: Pick<EpisodeService, 'listEpisodes' | 'getWorld' | 'clearLive'>,
  onProgress: (checked: number) => void = () => {},
): Promise<VerifyReport> {
  const report: VerifyReport = { checked: 0, diverged: [], skipped: [] };
  let cursor: string | null = null;
  do {
    const page = await service.listEpisodes({ cursor, limit: 100 });
    for (const { id } of page.items) {
      service.clearLive(); // rebuilt from the store alone, as after a restart
      try {
        await service.getWorld(id);
      } catch (e) {
        const problem = isAppError(e) ? e.message : `could not be read: ${(e as Error).message}`;
        if (isAppError(e) && e.code === 'REPLAY_UNSUPPORTED') report.skipped.push({ id, problem });
        else report.diverged.push({ id, problem });
      }
      report.checked++;
    }
    onProgress(report.checked);
    cursor = page.nextCursor;
  } while (cursor);
  return report;
}
