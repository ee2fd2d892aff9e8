// A stored episode played to its end at the table, for tests (the app plays turn by turn).
import type { Catalog } from '@/server/engine';
import type { EpisodeService } from '@/server/episodes/service';
import { playTableTurn, type TableOptions, type TablePlayer, type TableTurn } from '../table';

/** Plays turns until the episode ends, an infrastructure failure stops it, or the signal aborts. */
export async function playTableEpisode(
  service: EpisodeService,
  catalog: (id: string) => Catalog,
  episodeId: string,
  player: TablePlayer,
  options: TableOptions = {},
): Promise<TableTurn> {
  for (;;) {
    const turn = await playTableTurn(service, catalog, episodeId, player, options);
    if (!turn.ok || turn.episode.status === 'done' || options.signal?.aborted) return turn;
  }
}
