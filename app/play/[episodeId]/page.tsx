import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { toolSpecsFor } from '@/server/engine';
import { loadPlayPage } from '@/server/episodes/page-data';
import { episodeService } from '@/server/episodes';
import { Playground } from '@/components/play/Playground';
import { AccessDenied } from '@/components/common/AccessDenied';
import type { JsonSchema } from '@/components/play/schema-types';

export const dynamic = 'force-dynamic';

export default async function PlayPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const { episodeId } = await params;
  const page = await loadPlayPage(episodeId, await headers());
  if (!page) notFound();
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  const { seat, env } = page;
  const actors = Object.fromEntries((await episodeService.turnRecords(seat.id)).map((r) => [r.turn, r.actor]));
  return (
    <Playground
      initial={seat}
      actors={actors}
      tools={toolSpecsFor(seat.envId)}
      env={{
        id: seat.envId,
        name: env?.name ?? seat.envId,
        passRule: env?.passRule ?? '',
        keepsGoOnAnswers: env?.keepsGoOnAnswers ?? false,
        answerSchema: (env?.answerSchema ?? {}) as JsonSchema,
      }}
    />
  );
}
