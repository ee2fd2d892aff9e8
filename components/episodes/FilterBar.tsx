'use client';
// The episode filters. Every change goes straight to the URL (the page's only state).
import { useEffect, useState, type ReactNode } from 'react';
import { ENV_IDS } from '@/server/engine/types';
import { TERMINATIONS, type EpisodeFilter } from '@/server/inspector/filters';
import type { RunOption } from '@/server/inspector/run-keys';
import { cx } from '@/components/ui/primitives';
import { TERMINATION_LABELS } from '@/lib/format';

export interface Facets {
  players: string[];
  runs: RunOption[];
  catalogs: string[];
  origins: string[];
}

const input = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-0.5 text-xs text-slate-500">
      {label}
      {children}
    </label>
  );
}

/** A number box that reports on blur/Enter (so typing "-0.5" does not filter on "-"). */
function NumberBox({
  value,
  onChange,
  step,
  min,
  max,
  label,
}: {
  value?: number;
  onChange: (v?: number) => void;
  step: number;
  min: number;
  max: number;
  label: string;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  const commit = () => {
    const n = text.trim() === '' ? undefined : Number(text);
    if (n === undefined || (Number.isFinite(n) && n >= min && n <= max)) onChange(n);
    else setText(value === undefined ? '' : String(value));
  };
  return (
    <input
      aria-label={label}
      className={cx(input, 'w-16')}
      type="number"
      step={step}
      min={min}
      max={max}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

function Select({
  value,
  options,
  onChange,
  label,
  all = 'all',
}: {
  value?: string;
  options: Array<[string, string]>;
  onChange: (v?: string) => void;
  label: string;
  all?: string;
}) {
  return (
    <select
      aria-label={label}
      className={input}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value || undefined)}
    >
      <option value="">{all}</option>
      {/* a value from a link that the menu does not list (yet) still shows as chosen */}
      {value && !options.some(([v]) => v === value) && <option value={value}>{value}</option>}
      {options.map(([v, l]) => (
        <option key={v} value={v}>
          {l}
        </option>
      ))}
    </select>
  );
}

export function FilterBar({
  filter,
  facets,
  onChange,
  searchRef,
}: {
  filter: EpisodeFilter;
  facets?: Facets;
  /** Takes an update, not a value: two quick changes must compose even before the URL catches up. */
  onChange: (update: (f: EpisodeFilter) => EpisodeFilter) => void;
  searchRef: React.RefObject<HTMLInputElement | null>;
}) {
  const set = <K extends keyof EpisodeFilter>(k: K, v: EpisodeFilter[K]) => onChange((f) => ({ ...f, [k]: v }));
  const [q, setQ] = useState(filter.q ?? '');
  useEffect(() => setQ(filter.q ?? ''), [filter.q]);
  const envs = filter.env ?? [];
  const pairs = (xs: string[] | undefined) => (xs ?? []).map((x) => [x, x] as [string, string]);

  return (
    <div className="space-y-3 border-b border-slate-200 p-4" data-testid="filter-bar">
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          set('q', q.trim() || undefined);
        }}
      >
        <input
          ref={searchRef}
          className={cx(input, 'flex-1')}
          placeholder="Search messages, tool arguments and results  ( / )"
          aria-label="Search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && (e.target as HTMLInputElement).blur()}
        />
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1 text-sm font-medium text-white">
          Search
        </button>
      </form>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <Field label="environment">
          <div className="flex flex-wrap gap-1">
            {ENV_IDS.map((id) => {
              const on = envs.includes(id);
              return (
                <button
                  key={id}
                  type="button"
                  aria-pressed={on}
                  className={cx(
                    'rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset',
                    on
                      ? 'bg-sky-600 text-white ring-sky-600'
                      : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
                  )}
                  onClick={() =>
                    onChange((f) => {
                      const cur = f.env ?? [];
                      return { ...f, env: cur.includes(id) ? cur.filter((e) => e !== id) : [...cur, id] };
                    })
                  }
                >
                  {id}
                </button>
              );
            })}
          </div>
        </Field>
        <Field label="d from–to">
          <div className="flex items-center gap-1">
            <NumberBox label="d from" value={filter.dMin} onChange={(v) => set('dMin', v)} step={1} min={0} max={100} />
            –
            <NumberBox label="d to" value={filter.dMax} onChange={(v) => set('dMax', v)} step={1} min={0} max={100} />
          </div>
        </Field>
        <Field label="reward from–to">
          <div className="flex items-center gap-1">
            <NumberBox
              label="reward from"
              value={filter.rMin}
              onChange={(v) => set('rMin', v)}
              step={0.05}
              min={-1}
              max={1}
            />
            –
            <NumberBox
              label="reward to"
              value={filter.rMax}
              onChange={(v) => set('rMax', v)}
              step={0.05}
              min={-1}
              max={1}
            />
          </div>
        </Field>
        <Field label="result">
          <Select
            label="result"
            value={filter.pass}
            options={[
              ['pass', 'pass'],
              ['fail', 'fail'],
              ['active', 'active'],
            ]}
            onChange={(v) => set('pass', v as EpisodeFilter['pass'])}
          />
        </Field>
        <Field label="termination">
          <Select
            label="termination"
            value={filter.term?.[0]}
            options={TERMINATIONS.map((t) => [t, TERMINATION_LABELS[t] ?? t])}
            onChange={(v) => set('term', v ? [v as (typeof TERMINATIONS)[number]] : undefined)}
          />
        </Field>
        <Field label="failed by">
          <Select
            label="failed by"
            value={filter.failedBy}
            options={[
              ['agent', 'agent'],
              ['customer', 'customer simulator'],
              ['environment', 'environment'],
              ['infrastructure', 'infrastructure'],
            ]}
            onChange={(v) => set('failedBy', v as EpisodeFilter['failedBy'])}
          />
        </Field>
        <Field label="player / model">
          <Select
            label="player"
            value={filter.player}
            options={pairs(facets?.players)}
            onChange={(v) => set('player', v)}
          />
        </Field>
        <Field label="run">
          <Select
            label="run"
            value={filter.run}
            options={(facets?.runs ?? []).map((r) => [r.key, `${r.kind}: ${r.name}`] as [string, string])}
            onChange={(v) => set('run', v)}
          />
        </Field>
        <Field label="turns by">
          <Select
            label="turns by"
            value={filter.turns}
            options={[['human', 'human only']]}
            onChange={(v) => set('turns', v as EpisodeFilter['turns'])}
          />
        </Field>
        <Field label="catalog">
          <Select
            label="catalog"
            value={filter.catalog}
            options={pairs(facets?.catalogs)}
            onChange={(v) => set('catalog', v)}
          />
        </Field>
        <Field label="source">
          <Select
            label="source"
            value={filter.origin}
            options={pairs(facets?.origins)}
            onChange={(v) => set('origin', v)}
          />
        </Field>
        <Field label="goal revealed">
          <Select
            label="goal revealed"
            value={filter.revealed}
            options={[
              ['yes', 'yes'],
              ['no', 'no'],
            ]}
            onChange={(v) => set('revealed', v as EpisodeFilter['revealed'])}
          />
        </Field>
        <Field label="created from–to (UTC)">
          <div className="flex items-center gap-1">
            <input
              aria-label="created from"
              type="date"
              className={input}
              value={filter.from ?? ''}
              onChange={(e) => set('from', e.target.value || undefined)}
            />
            –
            <input
              aria-label="created to"
              type="date"
              className={input}
              value={filter.to ?? ''}
              onChange={(e) => set('to', e.target.value || undefined)}
            />
          </div>
        </Field>
        {Object.keys(filter).length > 0 && (
          <button type="button" className="pb-1 text-xs text-sky-700 underline" onClick={() => onChange(() => ({}))}>
            clear all
          </button>
        )}
      </div>
    </div>
  );
}
