// Playing the oracle on the same env, d, seed and overrides as a stored episode, through the
// episode service (so the result is an ordinary stored episode), for "compare with the oracle".
import { oracleAgent, playEpisode } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId } from '@/server/engine/types';
import type { EpisodeService } from '@/server/episodes/service';

export async function playOracleTwin(service: EpisodeService, getCatalog: (id: string) => Catalog, episodeId: string) {
  const { envId, d, seed, axisOverrides, catalogId } = await service.getEpisode(episodeId);
  // The oracle reads a twin played here (same config → same observations and goal) to choose its actions.
  const overrides = Object.keys(axisOverrides).length ? { axisOverrides } : {};
  const { actions } = playEpisode({ envId: envId as EnvId, d, seed, ...overrides }, getCatalog(catalogId), oracleAgent);
  const view = await service.startEpisode({ envId, d, seed, axisOverrides, catalogId, player: 'oracle' });
  for (const action of actions) await service.submitAction(view.id, action);
  return view.id;
}
