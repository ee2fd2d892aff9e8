import { Suspense } from 'react';
import { notFound } from 'next/navigation';
import { listEnvs } from '@/server/engine';
import { episodeService, EpisodeServiceError } from '@/server/episodes';
import { axisRows } from '@/server/episodes/axes';
import { inspector } from '@/server/inspector';
import { listInputFromParams } from '@/server/inspector/filters';
import { neighbours } from '@/server/inspector/query';
import { Replay } from '@/components/replay/Replay';

export const dynamic = 'force-dynamic';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function ReplayPage({
  params,
  searchParams,
}: {
  params: Promise<{ episodeId: string }>;
  searchParams: Promise<{ turn?: string | string[]; list?: string | string[] }>;
}) {
  const { episodeId } = await params;
  const sp = await searchParams;
  const turnParam = first(sp.turn);
  const turn = turnParam !== undefined && /^\d+$/.test(turnParam) ? Number(turnParam) : null;
  // The stored view only: the world is fetched per selected turn (a long episode is not replayed here).
  const view = await episodeService.getEpisode(episodeId).catch((e) => {
    if (e instanceof EpisodeServiceError && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) notFound();
    throw e;
  });
  const env = listEnvs().find((e) => e.id === view.envId);
  const ins = inspector();
  const extras = ins.data.extras(view.id, view.events);
  if (!extras) notFound();
  const listParams = first(sp.list);
  const list = listParams !== undefined ? { params: listParams, ...neighbours(ins.db, listInputFromParams(new URLSearchParams(listParams)), view.id) } : null;
  return (
    <Suspense>
      <Replay ep={view} envName={env?.name} axes={axisRows(view.d, view.axes, view.axisOverrides)} initialTurn={turn} extras={extras} list={list} />
    </Suspense>
  );
}
