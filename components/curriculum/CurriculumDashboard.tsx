// /curriculum: new-run form and run list on the left, the selected run (?run=ID) on the right.
import { Card, Empty } from '@/components/ui/primitives';
import { NewRunForm, type CollectionOption } from './NewRunForm';
import { RunList } from './RunList';
import { RunPanel } from './RunPanel';
import type { CurriculumPlayers } from './PlayControl';

export function CurriculumDashboard({
  runId,
  players,
  collections,
}: {
  runId: string | null;
  players: CurriculumPlayers;
  collections: CollectionOption[];
}) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Adaptive curriculum</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Each environment has a difficulty window [l, h], starting at [0, 0]; every episode draws d uniformly from it.
          Only episodes at d = h count: after 32 of them, if at least 90% passed, h rises by one and l follows at h − 4.
          The counters reset after every check. A built-in agent or a connected model plays the episodes on the server;
          every episode is stored and can be replayed.
        </p>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[300px_minmax(0,1fr)]">
        <div className="space-y-4">
          <NewRunForm collections={collections} />
          <RunList selectedId={runId} />
        </div>
        {runId ? (
          <RunPanel key={runId} runId={runId} players={players} />
        ) : (
          <Card>
            <Empty>Create a run, or pick one from the list.</Empty>
          </Card>
        )}
      </div>
    </div>
  );
}
