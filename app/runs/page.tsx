import { headers } from 'next/headers';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { AccessDenied } from '@/components/common/AccessDenied';
import { RunsDashboard } from '@/components/runs/RunsDashboard';

export const dynamic = 'force-dynamic';

export default async function RunsPage() {
  if (!isAdmin(authConfig(), credentialsFrom(await headers())))
    return <AccessDenied message="Batch runs are an admin page: sign in with the admin token." />;
  return <RunsDashboard />;
}
