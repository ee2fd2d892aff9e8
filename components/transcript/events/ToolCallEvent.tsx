'use client';
import { useState } from 'react';
import { Badge, Button, JsonBlock } from '@/components/ui/primitives';
import { ToolResultView } from '../tools/ToolResult';

function argsSummary(args: unknown): string {
  if (typeof args !== 'object' || args === null) return JSON.stringify(args);
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length === 0) return '';
  return entries.map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)}`).join(', ');
}

export function ToolCallEvent({
  name,
  args,
  result,
  error,
  index,
}: {
  name: string;
  args: unknown;
  result: unknown;
  error: string | null;
  index: number;
}) {
  const [raw, setRaw] = useState(false);
  return (
    <div className="ml-10 rounded-lg border border-slate-200 bg-slate-50/60" data-testid="tool-call" data-tool={name}>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-1.5">
        <span className="text-xs text-slate-400">#{index + 1}</span>
        <code className="text-xs font-semibold text-slate-800">{name || '(no name)'}</code>
        <code className="min-w-0 flex-1 truncate text-xs text-slate-600" title={argsSummary(args)}>
          ({argsSummary(args)})
        </code>
        {error ? <Badge tone="red">error</Badge> : <Badge tone="green">ok</Badge>}
        <Button size="sm" variant="ghost" onClick={() => setRaw((r) => !r)} aria-pressed={raw}>
          {raw ? 'Cards' : 'Raw JSON'}
        </Button>
      </div>
      <div className="p-3">
        {raw ? (
          <JsonBlock value={{ name, args, result, error }} />
        ) : error ? (
          <p className="text-sm text-rose-700" data-testid="tool-error">
            {error}
          </p>
        ) : (
          <ToolResultView name={name} result={result} />
        )}
      </div>
    </div>
  );
}
