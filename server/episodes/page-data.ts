// What the playground and the replay page load for an episode. The playground gets the agent
// seat's view (server/episodes/seat.ts); the replay gets the inspector's view, with the goal,
// the world and the evidence withheld while the episode is active and not revealed (the
// spoiler guard). This layer imports nothing from Next: the page passes its request headers in,
// and an unknown or malformed id comes back as null for the page to answer 404; a missing
// credential when auth is on comes back as { denied } for the page to explain.
import { listEnvs } from '@/server/engine';
import { authConfig, credentialsFrom, requireAdmin, requireAgent } from '@/server/auth';
import { isAppError } from '@/server/lib/errors';
import { episodeService, rescoreService } from './index';
import { goalMayLeave, toSeatView, voicedEvents } from './seat';
import type { EpisodeView } from './types';

type RequestHeaders = { get(name: string): string | null };

async function getOrNull(episodeId: string) {
  return episodeService.getEpisode(episodeId).catch((e) => {
    if (isAppError(e) && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) return null;
    throw e;
  });
}

const envOf = (envId: string) => listEnvs().find((e) => e.id === envId);

export async function loadPlayPage(episodeId: string, requestHeaders: RequestHeaders) {
  try {
    await requireAgent(authConfig(), credentialsFrom(requestHeaders), episodeId, (id, token) =>
      episodeService.checkCapability(id, token),
    );
  } catch (e) {
    if (isAppError(e) && e.code === 'UNAUTHORIZED') return { denied: e.message } as const;
    throw e;
  }
  const view = await getOrNull(episodeId);
  if (!view) return null;
  return { denied: null, seat: toSeatView(view), env: envOf(view.envId) } as const;
}

/** The events the replay may show: behind the spoiler guard, none of the world's changes. */
export const replayEvents = (full: EpisodeView) =>
  goalMayLeave(full) ? full.events : full.events.filter((e) => e.kind !== 'world_change');

export async function loadReplayPage(
  episodeId: string,
  requestHeaders: RequestHeaders,
  opts: { world?: boolean } = {},
) {
  try {
    requireAdmin(authConfig(), credentialsFrom(requestHeaders), 'the replay');
  } catch (e) {
    if (isAppError(e) && e.code === 'UNAUTHORIZED') return { denied: e.message } as const;
    throw e;
  }
  const stored = await getOrNull(episodeId);
  if (!stored) return null;
  // the LLM customer's messages as recorded, each with the template it stands for
  const full = { ...stored, events: voicedEvents(stored.events, stored.customerRewrites, true) };
  const open = goalMayLeave(full);
  // behind the spoiler guard nothing of the goal is rendered into the page (nor the seed, which regenerates it)
  const view = open ? full : { ...full, hiddenGoal: null, seed: null, events: replayEvents(full) };
  // the inspector's replay fetches the world per selected turn; replaying the whole episode here is skipped
  const world = open && opts.world !== false ? await episodeService.getWorld(full.id).catch(() => null) : null;
  const rescores = open && full.status === 'done' ? await rescoreService.listRescores(full.id) : [];
  return {
    denied: null,
    view,
    world,
    guarded: !open,
    env: envOf(full.envId),
    rescores,
    currentRevision: rescoreService.currentRevision,
  } as const;
}
