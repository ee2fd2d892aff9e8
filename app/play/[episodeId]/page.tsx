import { pageData } from '@/server/trpc/server-caller';
import { Playground } from '@/components/play/Playground';
import { AccessDenied } from '@/components/common/AccessDenied';
import type { JsonSchema } from '@/components/play/schema-types';

export const dynamic = 'force-dynamic';

export default async function PlayPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const { episodeId } = await params;
  const page = await pageData((trpc) => trpc.play.page({ id: episodeId }));
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  const { seat, env, tools, actors } = page.data;
  return (
    <Playground
      initial={seat}
      actors={actors}
      tools={tools}
      env={{ ...env, answerSchema: env.answerSchema as JsonSchema }}
    />
  );
}
