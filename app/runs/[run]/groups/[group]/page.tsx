import { pageData } from '@/server/trpc/server-caller';
import { AccessDenied } from '@/components/common/AccessDenied';
import { GroupView } from '@/components/runs/GroupView';

export const dynamic = 'force-dynamic';

/** /runs/<run key>/groups/<g:name | p:step:env:d:seed>: one group's rollouts side by side. */
export default async function GroupPage({ params }: { params: Promise<{ run: string; group: string }> }) {
  const p = await params;
  const run = decodeURIComponent(p.run);
  const page = await pageData((trpc) => trpc.runs.group({ run, group: decodeURIComponent(p.group) }));
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  return <GroupView run={run} {...page.data} />;
}
