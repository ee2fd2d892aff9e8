// Small event kinds: world change, action error, termination, reward line.
import Link from 'next/link';
import type { RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { Badge, JsonBlock } from '@/components/ui/primitives';
import { fmtReward, fmtTermination } from '@/lib/format';

export function WorldChangeEvent({ description, data }: { description: string; data: Record<string, unknown> }) {
  return (
    <div
      className="ml-10 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="world-change"
    >
      <span className="font-medium">World change:</span> {description}
      {Object.keys(data).length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-xs">data</summary>
          <JsonBlock value={data} className="mt-1" />
        </details>
      )}
    </div>
  );
}

/** A run of world changes in one turn (a restock sweep can be dozens): one card, the list folded. */
export function WorldChangeGroup({ descriptions }: { descriptions: string[] }) {
  return (
    <div
      className="ml-10 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="world-change-group"
    >
      <span className="font-medium">{descriptions.length} world changes:</span> {descriptions.slice(0, 2).join('; ')}; …
      <details className="mt-1">
        <summary className="cursor-pointer text-xs">all {descriptions.length}</summary>
        <ul className="mt-1 space-y-0.5 text-xs">
          {descriptions.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

export function ActionErrorEvent({ error, raw }: { error: string; raw: string }) {
  return (
    <div
      className="ml-10 rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900"
      data-testid="action-error"
    >
      <span className="font-medium">Action rejected:</span> {error}
      <details className="mt-1">
        <summary className="cursor-pointer text-xs">raw action text</summary>
        <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-white p-2 font-mono text-xs text-slate-800">
          {raw}
        </pre>
      </details>
    </div>
  );
}

export function TerminationEvent({ reason, turn }: { reason: TerminationReason; turn: number }) {
  const good = reason === 'answered';
  return (
    <div className="flex items-center gap-3 py-1 text-xs text-slate-500" data-testid="termination">
      <div className="h-px flex-1 bg-slate-200" />
      <span>
        Episode ended after turn {turn}: <Badge tone={good ? 'green' : 'red'}>{fmtTermination(reason)}</Badge>
      </span>
      <div className="h-px flex-1 bg-slate-200" />
    </div>
  );
}

export function RewardEvent({ breakdown, episodeId }: { breakdown: RewardBreakdown; episodeId?: string }) {
  return (
    <div className="flex items-center justify-center gap-2 text-sm" data-testid="reward-event">
      <span className="text-slate-600">Reward</span>
      <span className="font-semibold tabular-nums">{fmtReward(breakdown.total)}</span>
      <Badge tone={breakdown.isCorrect ? 'green' : 'red'}>{breakdown.isCorrect ? 'pass' : 'fail'}</Badge>
      {episodeId && (
        <Link href={`/episodes/${episodeId}#reward`} className="text-xs text-sky-700 underline">
          breakdown
        </Link>
      )}
    </div>
  );
}
