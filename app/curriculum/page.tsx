import { pageData } from '@/server/trpc/server-caller';
import { CurriculumDashboard } from '@/components/curriculum/CurriculumDashboard';
import { AccessDenied } from '@/components/common/AccessDenied';

export const dynamic = 'force-dynamic';

export default async function CurriculumPage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const sp = await searchParams;
  const run = Array.isArray(sp.run) ? sp.run[0] : sp.run;
  const page = await pageData((trpc) => trpc.curriculum.meta());
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  return (
    <CurriculumDashboard
      runId={run && /^[A-Za-z0-9_-]{1,64}$/.test(run) ? run : null}
      players={page.data.players}
      collections={page.data.collections}
    />
  );
}
