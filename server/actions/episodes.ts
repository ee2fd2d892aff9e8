'use server';
// Server actions (thin): check the caller's role, run the service, hand back the agent seat's view.
// A turn is not a server action: it goes to the lean route POST /play/<id>/step (server/episodes/seat-step.ts).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { setEpisodeCookie } from './episode-cookie';
import { revalidatePath } from 'next/cache';
import { authConfig, credentialsFrom, requireAdmin, requireAgent } from '@/server/auth';
import { episodeService, type StartEpisodeInput } from '@/server/episodes';
import { toSeatView, type SeatView } from '@/server/episodes/seat';
import { toPublicError } from '@/server/lib/errors';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code?: string };

function failure(e: unknown): { ok: false; error: string; code: string } {
  const pub = toPublicError(e);
  return { ok: false, error: pub.message, code: pub.code };
}

async function creds() {
  return credentialsFrom(await headers());
}

async function requireSeat(episodeId: string) {
  await requireAgent(authConfig(), await creds(), episodeId, (id, token) => episodeService.checkCapability(id, token));
}

/**
 * Starts an episode and redirects to its playground; returns an error when the input is bad.
 * The capability token goes into a cookie scoped to the episode's play path.
 */
export async function startEpisodeAction(input: StartEpisodeInput): Promise<ActionResult<never>> {
  let id: string;
  try {
    // input is whatever was posted: not an object goes to the service as it is, which words the error
    const given = (typeof input === 'object' ? input : null) as Partial<StartEpisodeInput> | null;
    const overrides = given?.axisOverrides;
    if (overrides && typeof overrides === 'object' && Object.keys(overrides).length > 0)
      requireAdmin(authConfig(), await creds(), 'axis overrides');
    const { capabilityToken, ...view } = await episodeService.startEpisode(
      given ? { ...(given as StartEpisodeInput), player: given.player ?? 'human' } : input,
    );
    id = view.id;
    await setEpisodeCookie(id, capabilityToken);
  } catch (e) {
    return failure(e);
  }
  revalidatePath('/');
  redirect(`/play/${id}`);
}

/** The player reveals the hidden goal on purpose (recorded; the episode leaves the statistics). */
export async function revealGoalAction(episodeId: string): Promise<ActionResult<SeatView>> {
  try {
    await requireSeat(episodeId);
    return { ok: true, data: toSeatView(await episodeService.revealGoal(episodeId)) };
  } catch (e) {
    return failure(e);
  }
}
