'use server';
// Server action (thin): re-score a finished episode under the current reward revision.
import { revalidatePath } from 'next/cache';
import { EpisodeServiceError, rescoreService, type RescoreView } from '@/server/episodes';

export async function rescoreEpisodeAction(
  episodeId: string,
): Promise<{ ok: true; data: RescoreView } | { ok: false; error: string }> {
  try {
    const data = await rescoreService.rescoreEpisode(episodeId);
    revalidatePath(`/episodes/${data.episodeId}`);
    return { ok: true, data };
  } catch (e) {
    if (e instanceof EpisodeServiceError) return { ok: false, error: e.message };
    console.error(e);
    return { ok: false, error: `server error: ${(e as Error)?.message ?? String(e)}` };
  }
}
