import { pageData } from '@/server/trpc/server-caller';
import { AccessDenied } from '@/components/common/AccessDenied';
import { RunView } from '@/components/runs/RunView';
import { PASS_THRESHOLD } from '@/server/engine/reward';
import { parseRunKey } from '@/server/inspector/run-keys';

export const dynamic = 'force-dynamic';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const stepOf = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/** /runs/<run key>?by=d&vs=<run key>&stepA=&stepB=: a run's view, and what it is compared with. */
export default async function RunViewPage({
  params,
  searchParams,
}: {
  params: Promise<{ run: string }>;
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const run = decodeURIComponent((await params).run);
  const sp = await searchParams;
  const vs = one(sp.vs);
  const stepA = stepOf(one(sp.stepA));
  const stepB = stepOf(one(sp.stepB));
  const { kind, id } = parseRunKey(run);
  const page = await pageData(async (trpc) => ({
    summary: await trpc.runs.view({ run }),
    runs: (await trpc.inspector.facets()).runs,
    curriculum: kind === 'curriculum' ? await trpc.curriculum.get({ id }) : null,
    versus: vs ? { vs, stepA, stepB, result: await trpc.runs.versus({ a: run, b: vs, stepA, stepB }) } : null,
  }));
  if (page.denied !== null) return <AccessDenied message={page.denied} />;
  const { summary, runs, curriculum, versus } = page.data;
  return (
    <RunView
      run={run}
      name={runs.find((r) => r.key === run)?.name ?? id}
      summary={summary}
      passThreshold={PASS_THRESHOLD}
      by={one(sp.by) === 'd' ? 'd' : 'env'}
      curriculum={
        curriculum && {
          timeline: curriculum.timeline,
          envs: curriculum.envs.map((e) => e.envId),
          playable: curriculum.playable,
        }
      }
      runs={runs}
      versus={versus}
    />
  );
}
