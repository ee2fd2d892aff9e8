import { notFound } from 'next/navigation';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import { episodeService, EpisodeServiceError } from '@/server/episodes';
import { Playground } from '@/components/play/Playground';
import type { JsonSchema } from '@/components/play/schema-form';

export const dynamic = 'force-dynamic';

export default async function PlayPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const { episodeId } = await params;
  const view = await episodeService.getEpisode(episodeId).catch((e) => {
    if (e instanceof EpisodeServiceError && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) notFound();
    throw e;
  });
  const world = await episodeService.getWorld(view.id).catch(() => null);
  const env = listEnvs().find((e) => e.id === view.envId);
  return (
    <Playground
      initial={view}
      initialWorld={world}
      tools={toolSpecsFor(view.envId)}
      env={{ id: view.envId, name: env?.name ?? view.envId, answerSchema: (env?.answerSchema ?? {}) as JsonSchema }}
    />
  );
}
