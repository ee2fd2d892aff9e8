import { appRouter } from '@/server/trpc';
import { serveTrpc } from '@/server/trpc/http';

export const dynamic = 'force-dynamic';

const handler = (req: Request) => serveTrpc(req, { endpoint: '/api/trpc', router: appRouter });

export { handler as GET, handler as POST };
