// What the playground and the replay page both load for an episode: the stored view, its
// world, and its environment's description. Unknown or malformed ids give null, and the
// page answers 404 (this layer imports nothing from Next).
import { listEnvs } from '@/server/engine';
import { episodeService, EpisodeServiceError, rescoreService } from './index';

export async function loadEpisodePage(episodeId: string) {
  let view;
  try {
    view = await episodeService.getEpisode(episodeId);
  } catch (e) {
    if (e instanceof EpisodeServiceError && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) return null;
    throw e;
  }
  const world = await episodeService.getWorld(view.id).catch(() => null);
  const env = listEnvs().find((e) => e.id === view.envId);
  const rescores = view.status === 'done' ? await rescoreService.listRescores(view.id) : [];
  return { view, world, env, rescores, currentRevision: rescoreService.currentRevision };
}
