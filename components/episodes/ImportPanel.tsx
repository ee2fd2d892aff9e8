'use client';
// Import episode files (the project's JSONL, OpenAI chat transcripts, reference traces with
// their README) and show the per-line report.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import { Badge, Button } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

export function ImportPanel() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const m = useMutation(
    trpc.inspector.import.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.inspector.pathKey() }),
    }),
  );
  const onFiles = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const files = await Promise.all([...list].map(async (f) => ({ name: f.name, text: await f.text() })));
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
            type="file"
            multiple
            accept=".jsonl,.json,.md,.txt"
            aria-label="Files to import"
            onChange={(e) => onFiles(e.target.files)}
            data-testid="import-input"
          />
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
