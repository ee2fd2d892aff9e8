// Under a model's turn in the replay: what the agent saw (the exact request) and what the
// model said (reply text, tool calls, finish reason, tokens, latency, attempts). Text only.
import type { ModelTurnRecord } from '@/server/models/table';
import { JsonBlock } from '@/components/ui/primitives';

export function ModelTurnPanel({ record }: { record: ModelTurnRecord }) {
  const reply = record.reply;
  const failed = record.attempts.filter((a) => !a.ok);
  return (
    <div className="mt-3 space-y-2 border-t border-slate-100 pt-3 text-xs" data-testid="model-turn-panel">
      <details>
        <summary className="cursor-pointer text-slate-600">
          What the agent saw ({record.request.messages.length} messages
          {record.request.tools ? `, ${record.request.tools.length} tools` : ''})
        </summary>
        <JsonBlock value={record.request} className="mt-2" />
      </details>
      <details>
        <summary className="cursor-pointer text-slate-600">
          What the model said
          {reply &&
            ` (${reply.finishReason ?? 'no finish reason'}, ${reply.latencyMs} ms${reply.usage ? `, ${reply.usage.prompt_tokens ?? '?'} → ${reply.usage.completion_tokens ?? '?'} tokens` : ''})`}
          {failed.length > 0 && `, ${failed.length} failed attempt${failed.length > 1 ? 's' : ''}`}
        </summary>
        <div className="mt-2 space-y-2">
          {reply?.content && (
            <pre className="whitespace-pre-wrap rounded-md bg-slate-50 p-2 font-mono text-slate-800">
              {reply.content}
            </pre>
          )}
          {reply && reply.toolCalls.length > 0 && <JsonBlock value={reply.toolCalls} />}
          {failed.length > 0 && <JsonBlock value={record.attempts} />}
        </div>
      </details>
    </div>
  );
}
