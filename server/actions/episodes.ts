'use server';
// Server actions (thin): validate with the service, run the engine through it.
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { episodeService, EpisodeServiceError, type EpisodeView, type StartEpisodeInput } from '@/server/episodes';
import type { Action } from '@/server/engine/types';

export type ActionResult<T> = { ok: true; data: T } | { ok: false, error: string; code?: string };

function failure(e: unknown): { ok: false; error: string; code?: string } {
  if (e instanceof EpisodeServiceError) return { ok: false, error: e.message, code: e.code };
  console.error(e);
  return { ok: false, error: `server error: ${(e as Error)?.message ?? String(e)}` };
}

/** Starts an episode and redirects to its playground; returns an error when the input is bad. */
export async function startEpisodeAction(input: StartEpisodeInput): Promise<ActionResult<never>> {
  let id: string;
  try {
    const view = await episodeService.startEpisode({ ...input, player: input.player ?? 'human' });
    id = view.id;
  } catch (e) {
    return failure(e);
  }
  revalidatePath('/');
  redirect(`/play/${id}`);
}

/** One agent turn: the structured action from the playground, or raw agent text. */
export async function submitActionAction(episodeId: string, action: Action | string): Promise<ActionResult<EpisodeView>> {
  try {
    const view = await episodeService.submitAction(episodeId, action);
    return { ok: true, data: view };
  } catch (e) {
    return failure(e);
  }
}
