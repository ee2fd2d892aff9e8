'use server';
// Server actions (thin): check the caller's role, run the service, hand back the agent seat's view.
// A turn is not a server action: it goes to the lean route POST /play/<id>/step (server/episodes/seat-step.ts).
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { setEpisodeCookie } from './episode-cookie';
import { callerCredentials, serverAction, type ActionResult } from './server-action';
import { authConfig, requireAdmin } from '@/server/auth';
import { episodeService, type StartEpisodeInput } from '@/server/episodes';
import { startSchema } from '@/server/episodes/inputs';
import { toSeatView, type SeatView } from '@/server/episodes/seat';
import { prisma } from '@/server/db';
import { requireConnectionUse } from '@/server/models/access';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';

const episodeId = z.string().describe('episode id');

/**
 * Starts an episode and redirects to its playground; returns an error when the input is bad.
 * The capability token goes into a cookie scoped to the episode's play path.
 */
export async function startEpisodeAction(input: StartEpisodeInput): Promise<ActionResult<never>> {
  const started = await serverAction('public', [startSchema.describe('start episode')], [input], async (start) => {
    if (Object.keys(start.axisOverrides ?? {}).length > 0)
      requireAdmin(authConfig(), await callerCredentials(), 'axis overrides');
    // the customer's voice calls a model endpoint with the admin's key: a public connection or the admin
    if (start.customerVoice) {
      const creds = await callerCredentials();
      await requireConnectionUse(
        createPrismaConnectionStore(prisma),
        start.customerVoice,
        (what) => requireAdmin(authConfig(), creds, what),
        'the customer voice',
      );
    }
    const { capabilityToken, ...view } = await episodeService.startEpisode({
      ...start,
      player: start.player ?? 'human',
    });
    await setEpisodeCookie(view.id, capabilityToken);
    return view.id;
  });
  if (!started.ok) return started;
  revalidatePath('/');
  redirect(`/play/${started.data}`);
}

/** The player reveals the hidden goal on purpose (recorded; the episode leaves the statistics). */
export async function revealGoalAction(id: string): Promise<ActionResult<SeatView>> {
  return serverAction({ agentOf: 0 }, [episodeId], [id], async (checked) =>
    toSeatView(await episodeService.revealGoal(checked)),
  );
}
