import { loadReplayPage } from '@/server/episodes/page-data';
import { episodeService } from '@/server/episodes';
import { axisRows } from '@/server/episodes/axes';
import { Replay } from '@/components/replay/Replay';
import { AccessDenied } from '@/components/common/AccessDenied';

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
  const page = await loadReplayPage(episodeId);
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  const { view, world, env, guarded } = page;
  const [turnRecords, family] = await Promise.all([episodeService.turnRecords(view.id), episodeService.family(view.id)]);
  return (
    <Replay
      ep={view}
      envName={env?.name}
      world={world}
      guarded={guarded}
      axes={axisRows(view.d, view.axes, view.axisOverrides)}
      highlightTurn={turn}
      turnRecords={turnRecords}
      family={family}
    />
  );
}
