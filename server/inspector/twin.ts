// Playing the oracle on the same env, d, seed and overrides as a stored episode, through the
// episode service (so the result is an ordinary stored episode), for "compare with the oracle".
import { createEpisode, oracleAgent } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EnvId } from '@/server/engine/types';
import type { EpisodeService } from '@/server/episodes/service';

export async function playOracleTwin(
  service: EpisodeService,
  getCatalog: (id: string) => Catalog,
  episodeId: string,
): Promise<string> {
  const src = await service.getEpisode(episodeId);
  const view = await service.startEpisode({
    envId: src.envId,
    d: src.d,
    seed: src.seed,
    axisOverrides: src.axisOverrides as Record<string, number>,
    catalogId: src.catalogId,
    player: 'oracle',
  });
  // The oracle reads a live twin (same config → same observations and goal) to choose actions.
  const twin = createEpisode(
    {
      envId: src.envId as EnvId,
      d: src.d,
      seed: src.seed,
      ...(Object.keys(src.axisOverrides).length ? { axisOverrides: src.axisOverrides } : {}),
    },
    getCatalog(src.catalogId),
  );
  let obs = twin.reset().observation;
  while (!twin.done) {
    const action = oracleAgent.act(obs, twin);
    obs = twin.step(action).observation;
    await service.submitAction(view.id, action);
  }
  return view.id;
}
