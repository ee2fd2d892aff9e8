// The model's turn while it streams: its text and tool calls as they arrive. Display-only:
// nothing here is stepped; the transcript shows the turn once the server has committed it.
import type { TurnPartial } from '@/lib/turn-stream';

export function StreamingTurn({ partial, turn }: { partial: TurnPartial; turn: number }) {
  return (
    <div
      className="rounded-lg border border-dashed border-sky-300 bg-sky-50/50 p-3"
      data-testid="model-stream"
      aria-live="polite"
    >
      <div className="mb-2 flex items-center gap-2 text-xs text-sky-800">
        <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-sky-500" aria-hidden />
        Turn {turn} arriving from the model (not taken yet)
      </div>
      {partial.content && (
        <p
          className="whitespace-pre-wrap rounded-lg bg-slate-800 px-3 py-2 text-sm text-white"
          data-testid="model-stream-text"
        >
          {partial.content}
        </p>
      )}
      {partial.toolCalls.map((call, i) => (
        <div
          key={i}
          className="mt-2 truncate rounded-md border border-slate-200 bg-white px-3 py-1.5 font-mono text-xs text-slate-700"
          data-testid="model-stream-call"
          title={call.arguments}
        >
          <span className="font-semibold text-slate-900">{call.name || '…'}</span>({call.arguments}
          <span className="text-slate-400">…</span>)
        </div>
      ))}
    </div>
  );
}
