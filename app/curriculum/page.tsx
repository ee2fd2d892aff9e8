import { curriculumService } from '@/server/curriculum';
import { CurriculumDashboard } from '@/components/curriculum/CurriculumDashboard';

export const dynamic = 'force-dynamic';

export default async function CurriculumPage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const sp = await searchParams;
  const run = Array.isArray(sp.run) ? sp.run[0] : sp.run;
  return (
    <CurriculumDashboard
      runId={run && /^[A-Za-z0-9_-]{1,64}$/.test(run) ? run : null}
      agents={curriculumService.agents()}
      collections={curriculumService.collections()}
    />
  );
}
