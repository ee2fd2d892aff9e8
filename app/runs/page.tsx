import { pageData } from '@/server/trpc/server-caller';
import { AccessDenied } from '@/components/common/AccessDenied';
import { RunsDashboard } from '@/components/runs/RunsDashboard';
import { RunLinks } from '@/components/runs/RunLinks';

export const dynamic = 'force-dynamic';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** /runs?run=<id>&vs=<id>: the run selected, and the run compared with it. */
export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const sp = await searchParams;
  const page = await pageData(async (trpc) => ({
    runs: await trpc.runs.list(),
    players: await trpc.models.players(),
    allRuns: (await trpc.inspector.facets()).runs,
  }));
  if (page.denied !== null)
    return <AccessDenied message="Batch runs are an admin page: sign in with the admin token." />;
  const { runs, players, allRuns } = page.data;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Runs</h1>
      <RunLinks runs={allRuns} />
      <RunsDashboard
        initialRuns={runs}
        players={[...players.connections.map((c) => `connection:${c}`), ...players.agents.map((a) => `agent:${a}`)]}
        initialRun={one(sp.run) ?? null}
        initialVs={one(sp.vs) ?? ''}
      />
    </div>
  );
}
