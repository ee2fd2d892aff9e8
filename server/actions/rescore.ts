'use server';
// Server action (thin): re-score a finished episode under the current reward revision. An
// inspector operation: the admin only when auth is on.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { serverAction, type ActionResult } from './server-action';
import { rescoreService, type RescoreView } from '@/server/episodes';

export async function rescoreEpisodeAction(episodeId: string): Promise<ActionResult<RescoreView>> {
  return serverAction(
    { admin: 're-scoring an episode' },
    [z.string().describe('episode id')],
    [episodeId],
    async (id) => {
      const data = await rescoreService.rescoreEpisode(id);
      revalidatePath(`/episodes/${data.episodeId}`);
      return data;
    },
  );
}
