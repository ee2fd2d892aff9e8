'use client';
// One run: play control, windows per env, the chart of h over time, the latest episodes.
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { fmtDateTime } from '@/lib/format';
import { EpisodeTable } from '@/components/episodes/EpisodeTable';
import { Badge, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { runViewUrl } from '@/components/runs/urls';
import { runKey } from '@/server/inspector/run-keys';
import { HChart } from './HChart';
import { OutcomeChart } from './OutcomeChart';
import { PlayControl, type CurriculumPlayers } from './PlayControl';
import { WindowTable } from './WindowTable';

export function RunPanel({ runId, players }: { runId: string; players: CurriculumPlayers }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.curriculum.get.queryOptions({ id: runId }));
  if (q.isLoading)
    return (
      <Card>
        <Empty>Loading run…</Empty>
      </Card>
    );
  if (q.isError || !q.data)
    return (
      <Card>
        <Empty>
          Could not load run {runId}: {q.error?.message ?? 'not found'}
        </Empty>
      </Card>
    );
  const run = q.data;
  const envIds = run.envs.map((e) => e.envId);
  return (
    <div className="space-y-4" data-testid="run-panel" data-run-id={run.id}>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-4 py-3">
          <div>
            <h2 className="text-lg font-semibold text-slate-900" data-testid="run-name">
              {run.name}
            </h2>
            <p className="mt-0.5 text-xs text-slate-500">
              created {fmtDateTime(run.createdAt)} · seed <span className="font-mono">{run.seed}</span> · catalog{' '}
              <span className="font-mono">{run.catalogId}</span> · env choice:{' '}
              {run.state.options.sampling === 'uniform' ? 'uniform' : 'round-robin'}
            </p>
          </div>
          <div className="flex items-center gap-2">
            <Badge tone="violet">{run.collection}</Badge>
            <Badge tone="blue" title="episodes recorded in the curriculum state">
              <span data-testid="run-episodes">{run.episodes}</span>&nbsp;episodes
            </Badge>
          </div>
        </div>
        <div className="p-4">
          <PlayControl runId={run.id} players={players} />
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Windows"
          right={
            <span className="text-xs text-slate-500">
              h rises after {run.state.options.batch} episodes at d = h with ≥{' '}
              {Math.round(run.state.options.threshold * 100)}% passed
            </span>
          }
        />
        <WindowTable envs={run.envs} playable={run.playable} />
      </Card>

      <Card>
        <CardHeader
          title="h over time"
          right={
            <span className="text-xs text-slate-500">
              x: episodes played in this run · lines sharing an h are drawn slightly apart
            </span>
          }
        />
        <div className="p-3">
          {run.episodes === 0 ? (
            <Empty>No episodes yet: play some to see h climb.</Empty>
          ) : (
            <HChart timeline={run.timeline} envs={envIds} playable={run.playable} />
          )}
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Pass rate and mean reward over the run"
          right={<span className="text-xs text-slate-500">x: stored episodes of this run, in slices</span>}
        />
        <div className="p-3">
          {run.outcomes.length === 0 ? <Empty>No stored episodes yet.</Empty> : <OutcomeChart points={run.outcomes} />}
        </div>
      </Card>

      <Card>
        <CardHeader
          title={`Latest episodes of this run (${run.storedEpisodes} stored)`}
          right={
            <span className="flex gap-3 text-xs">
              <Link
                href={runViewUrl(runKey('curriculum', run.id))}
                className="text-sky-700 underline"
                data-testid="curriculum-run-view"
              >
                run view (groups, effective prompt ratio)
              </Link>
              <Link href="/episodes" className="text-sky-700 underline">
                all episodes
              </Link>
            </span>
          }
        />
        {run.recentEpisodes.length === 0 ? (
          <Empty>No stored episodes yet.</Empty>
        ) : (
          <EpisodeTable episodes={run.recentEpisodes} />
        )}
      </Card>
    </div>
  );
}
