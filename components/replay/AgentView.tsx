'use client';
// "What the agent saw" before acting at a turn: the exact observation, and the model's
// prompt when one was recorded (said plainly when it was not).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { JsonBlock } from '@/components/ui/primitives';

export function AgentView({ episodeId, turn }: { episodeId: string; turn: number }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.inspector.observationAt.queryOptions({ id: episodeId, turn }), staleTime: Infinity });
  if (q.isLoading) return <p className="text-xs text-slate-500">loading…</p>;
  if (q.isError) return <p className="text-xs text-rose-700">{q.error.message}</p>;
  const d = q.data!;
  return (
    <div className="space-y-2" data-testid="agent-view">
      <p className="text-xs text-slate-500">
        The observation the agent received before choosing its turn-{turn} action (the tool list, sent every turn, is
        left out):
      </p>
      <JsonBlock value={d.observation} className="max-h-72" />
      {d.prompt ? (
        <>
          <p className="text-xs text-slate-500">{d.promptNote}:</p>
          <pre className="max-h-72 overflow-auto whitespace-pre-wrap rounded-md bg-slate-100 p-2 font-mono text-xs text-slate-800">
            {d.prompt}
          </pre>
        </>
      ) : (
        <p className="text-xs italic text-slate-500" data-testid="prompt-note">
          {d.promptNote}
        </p>
      )}
    </div>
  );
}
