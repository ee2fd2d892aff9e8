'use client';
// One connection's fields. Numbers are sent as numbers; empty optional fields are left out,
// so the server's schema applies its defaults and names any mistake in one sentence.
import { useState } from 'react';
import type { ConnectionRow } from '@/server/trpc/models';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

export interface ConnectionFormValues {
  name: string;
  baseUrl: string;
  model: string;
  actionMode: 'tools' | 'json';
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  timeoutMs?: number;
  apiKeyEnv?: string;
  stream?: boolean;
  sendEpisodeHeader?: boolean;
  public?: boolean;
}

const NUMBER_FIELDS = [
  ['temperature', 'Temperature', '0'],
  ['topP', 'top_p', '1'],
  ['maxTokens', 'Max tokens', '1024'],
  ['seed', 'Seed', 'none'],
  ['timeoutMs', 'Timeout (ms)', '60000'],
] as const;

export function ConnectionForm({
  initial,
  pending,
  onSave,
  onCancel,
}: {
  initial: ConnectionRow | null;
  pending: boolean;
  onSave: (v: ConnectionFormValues) => void;
  onCancel?: () => void;
}) {
  const [text, setText] = useState<Record<string, string>>(() => ({
    name: initial?.name ?? '',
    baseUrl: initial?.baseUrl ?? 'http://127.0.0.1:8011/v1',
    model: initial?.model ?? '',
    apiKeyEnv: initial?.apiKeyEnv ?? '',
    ...Object.fromEntries(NUMBER_FIELDS.map(([k]) => [k, initial?.[k] === undefined ? '' : String(initial[k])])),
  }));
  const [actionMode, setActionMode] = useState<'tools' | 'json'>(initial?.actionMode ?? 'tools');
  const [stream, setStream] = useState(initial?.stream ?? false);
  const [episodeHeader, setEpisodeHeader] = useState(initial?.sendEpisodeHeader ?? false);
  const [shared, setShared] = useState(initial?.public ?? false);
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setText((t) => ({ ...t, [k]: e.target.value }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const numbers = Object.fromEntries(
      NUMBER_FIELDS.filter(([k]) => text[k].trim() !== '').map(([k]) => [k, Number(text[k])]),
    );
    onSave({
      name: text.name.trim(),
      baseUrl: text.baseUrl.trim(),
      model: text.model.trim(),
      actionMode,
      ...numbers,
      ...(text.apiKeyEnv.trim() ? { apiKeyEnv: text.apiKeyEnv.trim() } : {}),
      stream,
      sendEpisodeHeader: episodeHeader,
      public: shared,
    });
  };

  const input = 'w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm';
  return (
    <Card>
      <CardHeader title={initial ? `Edit ${initial.name}` : 'Add a connection'} />
      <form onSubmit={submit} className="grid gap-3 px-4 py-4 text-sm sm:grid-cols-2" data-testid="connection-form">
        <label className="space-y-1">
          <span className="text-slate-600">Name</span>
          <input
            className={input}
            value={text.name}
            onChange={set('name')}
            readOnly={initial !== null}
            required
            data-testid="conn-name"
          />
        </label>
        <label className="space-y-1">
          <span className="text-slate-600">Base URL (ends in /v1)</span>
          <input
            className={input}
            value={text.baseUrl}
            onChange={set('baseUrl')}
            required
            data-testid="conn-base-url"
          />
        </label>
        <label className="space-y-1">
          <span className="text-slate-600">Model</span>
          <input className={input} value={text.model} onChange={set('model')} required data-testid="conn-model" />
        </label>
        <label className="space-y-1">
          <span className="text-slate-600">API key variable (its name, e.g. OPENAI_API_KEY; never the key)</span>
          <input
            className={input}
            value={text.apiKeyEnv}
            onChange={set('apiKeyEnv')}
            placeholder="none"
            data-testid="conn-key-env"
          />
        </label>
        <label className="space-y-1">
          <span className="text-slate-600">Action mode</span>
          <select
            className={input}
            value={actionMode}
            onChange={(e) => setActionMode(e.target.value as 'tools' | 'json')}
            data-testid="conn-mode"
          >
            <option value="tools">tool calling</option>
            <option value="json">JSON action</option>
          </select>
        </label>
        {NUMBER_FIELDS.map(([k, label, placeholder]) => (
          <label key={k} className="space-y-1">
            <span className="text-slate-600">{label}</span>
            <input
              className={input}
              type="number"
              step="any"
              value={text[k]}
              onChange={set(k)}
              placeholder={placeholder}
            />
          </label>
        ))}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={stream} onChange={(e) => setStream(e.target.checked)} /> Stream replies in
          batch runs (the playground always streams)
        </label>
        <label
          className="flex items-center gap-2"
          title="Only for npm run agent:serve (its random and oracle agents); never for a real model"
        >
          <input type="checkbox" checked={episodeHeader} onChange={(e) => setEpisodeHeader(e.target.checked)} /> Send
          the episode header (local agent server only)
        </label>
        <label
          className="flex items-center gap-2"
          title="With auth on, anyone may then play it or let it voice the customer, spending its key"
        >
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Public (anyone may
          play it when auth is on)
        </label>
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={pending} data-testid="conn-save">
            {pending ? 'Saving and checking…' : 'Save and check'}
          </Button>
          {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        </div>
      </form>
    </Card>
  );
}
