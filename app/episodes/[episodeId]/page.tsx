import { notFound } from 'next/navigation';
import { listEnvs } from '@/server/engine';
import { episodeService, EpisodeServiceError } from '@/server/episodes';
import { axisRows } from '@/server/episodes/axes';
import { Replay } from '@/components/replay/Replay';

export const dynamic = 'force-dynamic';

export default async function ReplayPage({
  params,
  searchParams,
}: {
  params: Promise<{ episodeId: string }>;
  searchParams: Promise<{ turn?: string | string[] }>;
}) {
  const { episodeId } = await params;
  const sp = await searchParams;
  const turnParam = Array.isArray(sp.turn) ? sp.turn[0] : sp.turn;
  const turn = turnParam !== undefined && /^\d+$/.test(turnParam) ? Number(turnParam) : null;
  const view = await episodeService.getEpisode(episodeId).catch((e) => {
    if (e instanceof EpisodeServiceError && (e.code === 'NOT_FOUND' || e.code === 'BAD_INPUT')) notFound();
    throw e;
  });
  const world = await episodeService.getWorld(view.id).catch(() => null);
  const env = listEnvs().find((e) => e.id === view.envId);
  return (
    <Replay
      ep={view}
      envName={env?.name}
      world={world}
      axes={axisRows(view.d, view.axes, view.axisOverrides)}
      highlightTurn={turn}
    />
  );
}
