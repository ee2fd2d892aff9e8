import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { episodeService } from '@/server/episodes';
import { loadReplayPage } from '@/server/episodes/page-data';
import { axisRows } from '@/server/episodes/axes';
import { inspector } from '@/server/inspector';
import { listInputFromParams } from '@/server/inspector/filters';
import { neighbours } from '@/server/inspector/query';
import { eventsIn, windowAround } from '@/server/inspector/turn-window';
import { Replay } from '@/components/replay/Replay';
import { AccessDenied } from '@/components/common/AccessDenied';

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
  const page = await loadReplayPage(episodeId, await headers(), { world: false });
  if (!page) notFound();
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  const { view, env, guarded, rescores, currentRevision } = page;
  const ins = inspector();
  const extras = await ins.data.extras(view.id, view.events);
  if (!extras) notFound();
  const [turnRecords, family] = await Promise.all([
    episodeService.turnRecords(view.id),
    episodeService.family(view.id),
  ]);
  const listParams = first(sp.list);
  const list =
    listParams !== undefined
      ? {
          params: listParams,
          ...(await neighbours(ins.db, listInputFromParams(new URLSearchParams(listParams)), view.id)),
        }
      : null;
  // Long episodes: only the turns around the selected one are rendered and sent.
  const lastTurn = extras.marks.length - 1;
  const window = windowAround(turn ?? lastTurn, lastTurn);
  return (
    <Replay
      ep={{ ...view, events: eventsIn(view.events, window) }}
      envName={env?.name}
      passRule={env?.passRule}
      axes={axisRows(view.d, view.axes, view.axisOverrides)}
      initialTurn={turn}
      extras={extras}
      list={list}
      guarded={guarded}
      rescores={rescores}
      currentRevision={currentRevision}
      turnRecords={turnRecords.filter((r) => r.turn >= window.from && r.turn <= window.to)}
      window={window}
      family={family}
      otherActors={[...new Set(turnRecords.map((r) => r.actor))].filter(
        (a): a is string => a !== null && a !== view.player,
      )}
    />
  );
}
