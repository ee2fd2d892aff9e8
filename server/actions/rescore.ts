'use server';
// Server action (thin): re-score a finished episode under the current reward revision. An
// inspector operation: the admin only when auth is on.
import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { authConfig, credentialsFrom, requireAdmin } from '@/server/auth';
import { rescoreService, type RescoreView } from '@/server/episodes';
import { toPublicError } from '@/server/lib/errors';

export async function rescoreEpisodeAction(
  episodeId: string,
): Promise<{ ok: true; data: RescoreView } | { ok: false; error: string }> {
  try {
    requireAdmin(authConfig(), credentialsFrom(await headers()), 're-scoring an episode');
    const data = await rescoreService.rescoreEpisode(episodeId);
    revalidatePath(`/episodes/${data.episodeId}`);
    return { ok: true, data };
  } catch (e) {
    return { ok: false, error: toPublicError(e).message }; // internal errors: logged with an id, only the id is sent
  }
}
