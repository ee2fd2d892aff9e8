// What the playground and the replay page load for an episode. The playground gets the agent
// seat's view (server/episodes/seat.ts); the replay gets the inspector's view, with the goal,
// the world and the evidence withheld while the episode is active and not revealed (the
// spoiler guard). Unknown or malformed ids become a 404; a missing credential when auth is on
// becomes { denied } for the page to explain.
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { listEnvs } from '@/server/engine';
import { authConfig, credentialsFrom, requireAdmin, requireAgent } from '@/server/auth';
import { isAppError } from '@/server/lib/errors';
import { episodeService } from './index';
import { goalMayLeave, toSeatView } from './seat';

async function getOr404(episodeId: string) {
  return episodeService.getEpisode(episodeId).catch((e) => {
    if (isAppError(e) && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) notFound();
    throw e;
  });
}

const envOf = (envId: string) => listEnvs().find((e) => e.id === envId);

export async function loadPlayPage(episodeId: string) {
  const creds = credentialsFrom(await headers());
  try {
    await requireAgent(authConfig(), creds, episodeId, (id, token) => episodeService.checkCapability(id, token));
  } catch (e) {
    if (isAppError(e) && e.code === 'UNAUTHORIZED') return { denied: e.message } as const;
    throw e;
  }
  const view = await getOr404(episodeId);
  return { denied: null, seat: toSeatView(view), env: envOf(view.envId) } as const;
}

export async function loadReplayPage(episodeId: string) {
  try {
    requireAdmin(authConfig(), credentialsFrom(await headers()), 'the replay');
  } catch (e) {
    if (isAppError(e) && e.code === 'UNAUTHORIZED') return { denied: e.message } as const;
    throw e;
  }
  const full = await getOr404(episodeId);
  const open = goalMayLeave(full);
  // behind the spoiler guard nothing of the goal is rendered into the page
  const view = open ? full : { ...full, hiddenGoal: null, events: full.events.filter((e) => e.kind !== 'world_change') };
  const world = open ? await episodeService.getWorld(full.id).catch(() => null) : null;
  return { denied: null, view, world, guarded: !open, env: envOf(full.envId) } as const;
}
