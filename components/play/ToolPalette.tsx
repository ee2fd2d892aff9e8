'use client';
// Pick a tool, fill its generated form, add the call to this turn (at most B_tool calls).
import { useMemo, useState } from 'react';
import type { ToolSpec } from '@/server/engine/types';
import { usePlayStore } from '@/lib/stores/play';
import { Badge, Button, Card, CardHeader, cx } from '@/components/ui/primitives';
import { SchemaForm } from './SchemaForm';
import { buildArgs } from './schema-build';
import { fieldsOf, type JsonSchema } from './schema-form';

export function ToolPalette({ tools, bTool, disabled }: { tools: ToolSpec[]; bTool: number; disabled: boolean }) {
  const { selectedTool, formValues, queue, selectTool, setField, updateFormValues, enqueue } = usePlayStore();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const tool = tools.find((t) => t.name === selectedTool) ?? null;
  const fields = useMemo(() => fieldsOf(tool?.parameters as JsonSchema | undefined), [tool]);
  const full = queue.length >= bTool;

  function add() {
    if (!tool) return;
    const { args, errors: errs } = buildArgs(fields, usePlayStore.getState().formValues);
    setErrors(errs);
    if (Object.keys(errs).length === 0) enqueue(tool.name, args);
  }

  const families = useMemo(() => {
    const m = new Map<string, ToolSpec[]>();
    for (const t of tools) {
      const fam = t.name.split('.')[0];
      m.set(fam, [...(m.get(fam) ?? []), t]);
    }
    return [...m.entries()];
  }, [tools]);

  return (
    <Card data-testid="tool-palette">
      <CardHeader
        title="Tools"
        right={
          <Badge tone={full ? 'amber' : 'slate'} title="tool calls per turn (B_tool)">
            {queue.length} / {bTool} calls this turn
          </Badge>
        }
      />
      <div className="space-y-3 p-4">
        <div className="space-y-1.5">
          {families.map(([fam, list]) => (
            <div key={fam} className="flex flex-wrap items-center gap-1.5">
              <span className="w-16 text-xs text-slate-400">{fam}</span>
              {list.map((t) => (
                <button
                  key={t.name}
                  type="button"
                  disabled={disabled}
                  onClick={() => {
                    setErrors({});
                    selectTool(t.name);
                  }}
                  className={cx(
                    'rounded-md px-2 py-1 font-mono text-xs ring-1 ring-inset transition-colors disabled:opacity-50',
                    t.name === selectedTool
                      ? 'bg-slate-900 text-white ring-slate-900'
                      : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-100',
                  )}
                  data-testid={`tool-${t.name}`}
                >
                  {t.name.split('.').slice(1).join('.')}
                </button>
              ))}
            </div>
          ))}
        </div>
        {tool ? (
          <div className="rounded-md border border-slate-200 p-3" data-testid="tool-form" data-tool={tool.name}>
            <div className="mb-2">
              <code className="text-sm font-semibold">{tool.name}</code>
              <p className="text-xs text-slate-500">{tool.description}</p>
            </div>
            <SchemaForm
              fields={fields}
              values={formValues}
              errors={errors}
              onChange={setField}
              onValues={updateFormValues}
              idPrefix="tool"
            />
            <div className="mt-3 flex items-center gap-2">
              <Button variant="primary" onClick={add} disabled={disabled || full} data-testid="queue-call">
                Add call to this turn
              </Button>
              {full && <span className="text-xs text-amber-700">B_tool = {bTool}: this turn is full</span>}
            </div>
          </div>
        ) : (
          <p className="text-xs text-slate-500">Choose a tool to fill in its arguments.</p>
        )}
      </div>
    </Card>
  );
}
