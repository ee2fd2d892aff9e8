'use client';
// The reward revision an episode was scored under, and re-scoring it under the current one:
// the stored reward and the re-score side by side, component by component (issue 7.1).
import { useState, useTransition } from 'react';
import { attempt, useTRPCClient } from '@/lib/trpc';
import type { ComponentDiff, RescoreView } from '@/server/episodes/rescore';
import { Badge, Button, Card, CardHeader, cx } from '@/components/ui/primitives';
import { fmtReward, fmtTermination } from '@/lib/format';

function show(name: ComponentDiff['name'], v: ComponentDiff['old']): string {
  if (v === null) return '–';
  if (name === 'reward') return fmtReward(v as number);
  if (name === 'termination') return fmtTermination(v as string);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

export function RescorePanel({
  episodeId,
  revision,
  currentRevision,
  done,
  initial,
}: {
  episodeId: string;
  revision: number;
  currentRevision: number;
  done: boolean;
  initial: RescoreView | null;
}) {
  const trpc = useTRPCClient();
  const [latest, setLatest] = useState<RescoreView | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const older = revision < currentRevision;
  const rescore = () =>
    startTransition(async () => {
      setError(null);
      const r = await attempt(trpc.replay.rescore.mutate({ id: episodeId }));
      if (r.ok) setLatest(r.data);
      else setError(r.error);
    });
  return (
    <Card data-testid="rescore-panel">
      <CardHeader
        title="Reward revision"
        right={
          <Badge tone={older ? 'amber' : 'green'} title={`the engine now scores under revision ${currentRevision}`}>
            scored under revision {revision}
            {older ? ` (current: ${currentRevision})` : ' (current)'}
          </Badge>
        }
      />
      <div className="space-y-3 p-4 text-sm">
        {older && (
          <p className="text-slate-600">
            This reward was computed under an older revision of the reward. Re-scoring replays the stored actions under
            the current engine; the stored reward is kept.
          </p>
        )}
        {done && (
          <Button
            variant={older ? 'primary' : 'secondary'}
            size="sm"
            onClick={rescore}
            disabled={pending}
            data-testid="rescore-button"
          >
            {pending ? 'Re-scoring…' : `Re-score under revision ${currentRevision}`}
          </Button>
        )}
        {error && (
          <p role="alert" className="text-rose-700">
            {error}
          </p>
        )}
        {latest && (
          <div data-testid="rescore-result">
            <p className="mb-2 text-xs text-slate-500">
              Re-scored {new Date(latest.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC · replay{' '}
              {latest.replay.replace('_', ' ')}: {latest.note}
            </p>
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th className="py-1 font-semibold">component</th>
                  <th className="py-1 font-semibold">revision {latest.fromRevision}</th>
                  <th className="py-1 font-semibold">revision {latest.toRevision}</th>
                </tr>
              </thead>
              <tbody>
                {latest.components.map((c) => (
                  <tr
                    key={c.name}
                    className={cx('border-t border-slate-100', c.changed && 'bg-amber-50 font-medium')}
                    data-changed={c.changed}
                  >
                    <td className="py-1">{c.name}</td>
                    <td className="py-1 tabular-nums">{show(c.name, c.old)}</td>
                    <td className="py-1 tabular-nums">{show(c.name, c.new)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </Card>
  );
}
