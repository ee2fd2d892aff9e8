import { pageData } from '@/server/trpc/server-caller';
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
  const page = await pageData((trpc) => trpc.replay.page({ id: episodeId, turn, list: first(sp.list) ?? null }));
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  return <Replay {...page.data} />;
}
