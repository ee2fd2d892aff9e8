import { FoldedText } from './FoldedText';

export function AgentMessage({ text }: { text: string }) {
  return (
    <div className="flex flex-row-reverse gap-3" data-testid="agent-message">
      <div className="mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white">
        A
      </div>
      <div className="min-w-0 max-w-[85%]">
        <div className="mb-1 text-right text-xs font-medium text-slate-700">Agent</div>
        <p className="whitespace-pre-wrap rounded-lg rounded-tr-none bg-slate-800 px-3 py-2 text-sm text-white">
          <FoldedText text={text} />
        </p>
      </div>
    </div>
  );
}
