'use client';
// Model connections: register, edit, delete; saving runs the conformance check and each
// failing check shows as a badge. The API key is never entered here: only the NAME of the
// server's environment variable that holds it.
import { useState, useTransition } from 'react';
import type { ConnectionRow } from '@/server/trpc/models';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { Badge, Button, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { ConnectionForm, type ConnectionFormValues } from './ConnectionForm';

export function ConnectionsManager({ initial }: { initial: ConnectionRow[] }) {
  const trpc = useTRPCClient();
  const [rows, setRows] = useState<ConnectionRow[] | null>(initial);
  const [editing, setEditing] = useState<ConnectionRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // Its own transition: the form said "Saving and checking…" while the list was only loading.
  const [saving, startSaving] = useTransition();

  const save = (values: ConnectionFormValues) =>
    startSaving(async () => {
      setError(null);
      const res = await attempt(trpc.models.save.mutate(values));
      if (!res.ok) return setError(res.error);
      setEditing(null);
      const list = await attempt(trpc.models.connections.query());
      if (list.ok) setRows(list.data);
    });

  const remove = (name: string) =>
    startTransition(async () => {
      const res = await attempt(trpc.models.delete.mutate({ name }));
      if (!res.ok) return setError(res.error);
      setRows((r) => r?.filter((c) => c.name !== name) ?? null);
    });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Model connections</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          OpenAI-compatible chat-completions endpoints (vLLM, Ollama, llama.cpp, a hosted API, or{' '}
          <code>npm run agent:serve</code>). The server reaches only hosts on its allow-list (loopback unless{' '}
          <code>ECOMRLVE_MODEL_HOSTS</code> says more). Keys stay in the server&apos;s environment: give the
          variable&apos;s name.
        </p>
      </div>
      <Card>
        <CardHeader title="Saved connections" />
        {rows === null ? (
          <Empty>Loading…</Empty>
        ) : rows.length === 0 ? (
          <Empty>No connection yet.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="connections">
            {rows.map((c) => (
              <li
                key={c.name}
                className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm"
                data-testid="connection-row"
                data-name={c.name}
              >
                <span className="font-medium text-slate-900">{c.name}</span>
                <span className="font-mono text-xs text-slate-500">
                  {c.baseUrl} · {c.model} · {c.actionMode}
                </span>
                {c.apiKeyEnv && (
                  <Badge tone={c.apiKeySet ? 'slate' : 'amber'}>
                    {c.apiKeySet ? `key from ${c.apiKeyEnv}` : `${c.apiKeyEnv} is not set`}
                  </Badge>
                )}
                <ConformanceBadges row={c} />
                <span className="ml-auto flex gap-2">
                  <Button size="sm" onClick={() => setEditing(c)}>
                    Edit
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => remove(c.name)} disabled={pending}>
                    Delete
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {error && (
        <p
          className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
          role="alert"
          data-testid="connection-error"
        >
          {error}
        </p>
      )}
      <ConnectionForm
        key={editing?.name ?? 'new'}
        initial={editing}
        pending={saving}
        onSave={save}
        onCancel={editing ? () => setEditing(null) : undefined}
      />
    </div>
  );
}

function ConformanceBadges({ row }: { row: ConnectionRow }) {
  const report = row.conformance;
  if (!report)
    return <Badge title="checked when saved; this server has not checked it since it started">not checked</Badge>;
  if (report.ok)
    return (
      <span data-testid="conformance-ok">
        <Badge tone="green">conformance passed</Badge>
      </span>
    );
  const failing = report.checks.filter((c) => !c.ok);
  // The reason in words, not only on hover: an unreachable endpoint fails every check the same way.
  const reasons = [...new Set(failing.map((c) => c.detail))];
  return (
    <span className="flex flex-col gap-1" data-testid="conformance-failing">
      <span className="flex flex-wrap gap-1">
        {failing.map((c) => (
          <Badge key={c.id} tone="red" title={c.detail}>
            {c.label} failed
          </Badge>
        ))}
      </span>
      <span className="text-xs text-rose-800 [overflow-wrap:anywhere]" data-testid="conformance-reasons">
        {reasons.length === 1 && failing.length > 1
          ? `All ${failing.length}: ${reasons[0]}`
          : failing.map((c) => `${c.label}: ${c.detail}`).join(' · ')}
      </span>
    </span>
  );
}
