import { pageData } from '@/server/trpc/server-caller';
import { AccessDenied } from '@/components/common/AccessDenied';
import { RunsDashboard } from '@/components/runs/RunsDashboard';

export const dynamic = 'force-dynamic';

export default async function RunsPage() {
  const page = await pageData((trpc) => trpc.runs.list());
  if (page.denied !== null)
    return <AccessDenied message="Batch runs are an admin page: sign in with the admin token." />;
  return <RunsDashboard initialRuns={page.data} />;
}
