import { headers } from 'next/headers';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { AccessDenied } from '@/components/common/AccessDenied';
import { ConnectionsManager } from '@/components/models/ConnectionsManager';

export const dynamic = 'force-dynamic';

export default async function ModelsPage() {
  if (!isAdmin(authConfig(), credentialsFrom(await headers())))
    return <AccessDenied message="Model connections are an admin page: sign in with the admin token." />;
  return <ConnectionsManager />;
}
