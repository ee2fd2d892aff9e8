import { notFound } from 'next/navigation';
import { toolSpecsFor } from '@/server/engine';
import { loadEpisodePage } from '@/server/episodes/page-data';
import { Playground } from '@/components/play/Playground';
import type { JsonSchema } from '@/components/play/schema-form';

export const dynamic = 'force-dynamic';

export default async function PlayPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const { episodeId } = await params;
  const page = await loadEpisodePage(episodeId);
  if (!page) notFound();
  const { view, world, env } = page;
  return (
    <Playground
      initial={view}
      initialWorld={world}
      tools={toolSpecsFor(view.envId)}
      env={{ id: view.envId, name: env?.name ?? view.envId, answerSchema: (env?.answerSchema ?? {}) as JsonSchema }}
    />
  );
}
