import { pageData } from '@/server/trpc/server-caller';
import { AccessDenied } from '@/components/common/AccessDenied';
import { ConnectionsManager } from '@/components/models/ConnectionsManager';

export const dynamic = 'force-dynamic';

export default async function ModelsPage() {
  const page = await pageData((trpc) => trpc.models.connections());
  if (page.denied !== null)
    return <AccessDenied message="Model connections are an admin page: sign in with the admin token." />;
  return <ConnectionsManager initial={page.data} />;
}
