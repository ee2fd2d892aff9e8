'use client';
// Import episode files (the project's JSONL, OpenAI chat transcripts, reference traces with
// their README) and show the per-line report. Choosing files lists them first; nothing is
// imported until "Import" is pressed (issue 31).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import { Badge, Button } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

const fmtBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

export function ImportPanel() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<File[]>([]);
  const [inputKey, setInputKey] = useState(0);
  const m = useMutation(
    trpc.inspector.import.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.inspector.pathKey() }),
    }),
  );
  const reset = () => (setChosen([]), setInputKey((k) => k + 1));
  const importChosen = async () => {
    const files = await Promise.all(chosen.map(async (f) => ({ name: f.name, text: await f.text() })));
    reset();
    m.mutate({ files });
  };
  const report = m.data ?? [];
  const ok = report.filter((r) => r.ok).length;
  return (
    <div className="border-b border-slate-200 px-4 py-2 text-sm" data-testid="import-panel">
      <Button size="sm" variant="ghost" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {open ? '▾' : '▸'} Import episodes
      </Button>
      {open && (
        <div className="mt-2 space-y-2">
          <p className="text-xs text-slate-500">
            JSONL of this project&apos;s episode format, OpenAI chat transcripts (JSONL, with{' '}
            <code>metadata.env_id</code> and <code>d</code>), or reference trace files (.json; add their README.md to
            split steps exactly). Each episode is stored whole or not at all.
          </p>
          <input
            key={inputKey}
            type="file"
            multiple
            accept=".jsonl,.json,.md,.txt"
            aria-label="Files to import"
            onChange={(e) => setChosen([...(e.target.files ?? [])])}
            data-testid="import-input"
          />
          {chosen.length > 0 && (
            <div className="rounded-md border border-sky-200 bg-sky-50/60 p-2" data-testid="import-confirm">
              <p className="mb-1 text-xs font-medium text-slate-700">
                Import {chosen.length} file{chosen.length === 1 ? '' : 's'}?
              </p>
              <ul className="mb-2 max-h-40 overflow-auto text-xs text-slate-700" data-testid="import-file-list">
                {chosen.map((f) => (
                  <li key={f.name} className="flex justify-between gap-3 font-mono">
                    <span className="truncate">{f.name}</span>
                    <span className="shrink-0 tabular-nums text-slate-500">{fmtBytes(f.size)}</span>
                  </li>
                ))}
              </ul>
              <div className="flex gap-2">
                <Button size="sm" variant="primary" onClick={() => void importChosen()} data-testid="import-go">
                  Import
                </Button>
                <Button size="sm" variant="ghost" onClick={reset} data-testid="import-cancel">
                  Cancel
                </Button>
              </div>
            </div>
          )}
          {m.isPending && <p className="text-xs text-slate-500">Importing…</p>}
          {m.isError && <p className="text-xs text-rose-700">{m.error.message}</p>}
          {report.length > 0 && (
            <div data-testid="import-report">
              <p className="mb-1 text-xs text-slate-600">
                {ok} of {report.length} imported
              </p>
              <div className="max-h-72 overflow-auto rounded border border-slate-200">
                <table className="w-full text-xs">
                  <thead className="sticky top-0 bg-slate-50 text-slate-500">
                    <tr>
                      <th className="px-2 py-1 text-left">file:line</th>
                      <th className="px-2 py-1 text-left" />
                      <th className="px-2 py-1 text-right">recorded</th>
                      <th className="px-2 py-1 text-right">re-scored</th>
                      <th className="px-2 py-1 text-left">message</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {report.map((r, i) => (
                      <tr key={i} data-testid="import-row">
                        <td className="whitespace-nowrap px-2 py-1 font-mono">
                          {r.file}:{r.line}
                        </td>
                        <td className="px-2 py-1">
                          {r.ok ? <Badge tone="green">ok</Badge> : <Badge tone="red">skipped</Badge>}
                        </td>
                        <td className="px-2 py-1 text-right tabular-nums">{r.ok ? fmtReward(r.recordedReward) : ''}</td>
                        <td className="px-2 py-1 text-right tabular-nums">{r.ok ? fmtReward(r.rescoredReward) : ''}</td>
                        <td className="px-2 py-1 text-slate-700">
                          {r.message}
                          {r.ok && r.id && (
                            <Link href={`/episodes/${r.id}`} className="ml-1 text-sky-700 underline">
                              open
                            </Link>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
