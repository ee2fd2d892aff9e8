'use client';
// Batch runs: start one (player × envs × d × seeds), watch its progress, cancel it; the
// selected run's heatmap and per-d curves; two runs side by side (which tasks flipped). The
// selected run and the one compared with it live in the URL (/runs?run=<id>&vs=<id>), so a run
// summary or a comparison can be linked.
import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import { defaultRunName } from '@/server/inspector/run-keys';
import { ENV_IDS, type EnvId } from '@/server/engine/types';
import type { RunCompare } from '@/server/inspector/compare';
import type { RunCellStats } from '@/server/models/runs';
import type { RunRow } from '@/server/trpc/runs';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { Button, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { BundleButton } from '@/components/episodes/BundleButton';
import { RunCurves } from './RunCurves';
import { RunHeatmap } from './RunHeatmap';
import { fmtDateTime } from '@/lib/format';
import { RUN_BOUNDS } from '@/lib/run-bounds';

/** How many episodes the form would start: envs × d values × seeds × rollouts (what the server plays). */
function runSize(f: { envs: string[]; dFrom: number; dTo: number; seeds: number; rolloutsPerSeed: number }): string {
  const ds = f.dTo - f.dFrom + 1;
  const g = f.rolloutsPerSeed;
  if (f.envs.length === 0 || ds < 1 || f.seeds < 1 || g < 1) return '';
  const groups = g > 1 ? ` × ${g} rollouts (groups of ${g})` : '';
  return `${f.envs.length} env${f.envs.length === 1 ? '' : 's'} × ${ds} d × ${f.seeds} seed${f.seeds === 1 ? '' : 's'}${groups} = ${f.envs.length * ds * f.seeds * g} episodes`;
}

/** The URL of the runs page with this run selected and compared (linkable). */
const runsUrl = (run: string | null, vs: string) => {
  const p = new URLSearchParams();
  if (run) p.set('run', run);
  if (run && vs) p.set('vs', vs);
  return p.size ? `/runs?${p}` : '/runs';
};

export function RunsDashboard({
  initialRuns,
  players,
  initialRun = null,
  initialVs = '',
}: {
  initialRuns: RunRow[];
  /** who can play ('connection:<name>' | 'agent:<name>'), read on the server: the choice never waits for a fetch */
  players: string[];
  initialRun?: string | null;
  initialVs?: string;
}) {
  const trpc = useTRPCClient();
  const [runs, setRuns] = useState<RunRow[]>(initialRuns);
  // the form's controls stay disabled until React owns them: a choice made before hydration would be lost
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [form, setForm] = useState({
    name: '',
    player: players.includes('agent:heuristic') ? 'agent:heuristic' : (players[0] ?? ''),
    envs: [...ENV_IDS] as EnvId[],
    dFrom: 0,
    dTo: 12,
    seeds: 5,
    concurrency: 4,
    rolloutsPerSeed: 1,
    /** '' = the player's own (a connection's setting; 0 for a built-in agent) */
    temperature: '',
  });
  const [selected, setSelectedState] = useState<string | null>(initialRun);
  const [other, setOtherState] = useState<string>(initialVs);
  const go = (run: string | null, vs: string) => {
    setSelectedState(run);
    setOtherState(vs);
    window.history.replaceState(null, '', runsUrl(run, vs));
  };
  const setSelected = (run: string) => go(run, other === run ? '' : other);
  const setOther = (vs: string) => go(selected, vs);
  const [stats, setStats] = useState<RunCellStats[]>([]);
  const [flips, setFlips] = useState<RunCompare['flipped'] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const res = await attempt(trpc.runs.list.query());
    if (res.ok) setRuns(res.data);
    else setError(res.error);
  }, [trpc]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // progress: poll while a run is going
  const running = runs.some((r) => r.state === 'running');
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void reload(), 1500);
    return () => clearInterval(t);
  }, [running, reload]);
  const selectedRow = runs.find((r) => r.id === selected);
  useEffect(() => {
    if (!selected) return;
    void attempt(trpc.runs.stats.query({ id: selected })).then((r) => (r.ok ? setStats(r.data) : setError(r.error)));
  }, [selected, selectedRow?.done, trpc]);
  useEffect(() => {
    setFlips(null);
    if (selected && other)
      void attempt(trpc.runs.flipped.query({ a: other, b: selected })).then((r) =>
        r.ok ? setFlips(r.data) : setError(r.error),
      );
  }, [selected, other, trpc]);

  const start = async () => {
    setError(null);
    const res = await attempt(
      trpc.runs.start.mutate({
        ...form,
        name: form.name.trim() || undefined,
        temperature: form.temperature.trim() === '' ? undefined : Number(form.temperature),
      }),
    );
    if (!res.ok) return setError(res.error);
    go(res.data.id, '');
    await reload();
  };

  const num =
    (k: 'dFrom' | 'dTo' | 'seeds' | 'concurrency' | 'rolloutsPerSeed') => (e: React.ChangeEvent<HTMLInputElement>) =>
      setForm((f) => ({ ...f, [k]: Number(e.target.value) }));
  return (
    <div className="space-y-6">
      <h2 className="text-xl font-semibold text-slate-900">Batch runs</h2>
      <Card>
        <CardHeader title="Start a run" />
        <div className="flex flex-wrap items-end gap-3 px-4 py-3 text-sm">
          <label className="space-y-1">
            <span className="block text-slate-600">Player</span>
            <select
              className="rounded-md border border-slate-300 px-2 py-1"
              value={form.player}
              onChange={(e) => setForm((f) => ({ ...f, player: e.target.value }))}
              disabled={!hydrated}
              data-testid="run-player"
            >
              {players.length === 0 && <option value="">no player available</option>}
              {players.map((p) => (
                <option key={p} value={p}>
                  {p.replace('connection:', 'model ').replace('agent:', 'built-in ')}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="flex flex-wrap gap-2">
            {ENV_IDS.map((e) => (
              <label key={e} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={form.envs.includes(e)}
                  onChange={(ev) =>
                    setForm((f) => ({ ...f, envs: ev.target.checked ? [...f.envs, e] : f.envs.filter((x) => x !== e) }))
                  }
                />
                {e}
              </label>
            ))}
          </fieldset>
          <NumberField
            label="d from"
            {...RUN_BOUNDS.d}
            value={form.dFrom}
            onChange={num('dFrom')}
            testId="run-d-from"
          />
          <NumberField label="to" {...RUN_BOUNDS.d} value={form.dTo} onChange={num('dTo')} testId="run-d-to" />
          <NumberField
            label="seeds per env × d"
            {...RUN_BOUNDS.seeds}
            value={form.seeds}
            onChange={num('seeds')}
            testId="run-seeds"
          />
          <NumberField
            label="episodes at once"
            {...RUN_BOUNDS.concurrency}
            value={form.concurrency}
            onChange={num('concurrency')}
          />
          <NumberField
            label="rollouts per seed"
            {...RUN_BOUNDS.rolloutsPerSeed}
            value={form.rolloutsPerSeed}
            onChange={num('rolloutsPerSeed')}
            testId="run-rollouts"
          />
          <label className="space-y-1" title="each rollout samples with its own seed; blank: the player's own setting">
            <span className="block text-slate-600">temperature</span>
            <input
              className="w-20 rounded-md border border-slate-300 px-2 py-1"
              type="number"
              step={0.1}
              {...RUN_BOUNDS.temperature}
              value={form.temperature}
              placeholder="own"
              onChange={(e) => setForm((f) => ({ ...f, temperature: e.target.value }))}
              data-testid="run-temperature"
            />
          </label>
          <label className="space-y-1">
            <span className="block text-slate-600">Name</span>
            <input
              className="w-72 max-w-full rounded-md border border-slate-300 px-2 py-1"
              value={form.name}
              maxLength={120}
              placeholder={defaultName(form)}
              onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
              data-testid="run-name"
            />
          </label>
          <Button variant="primary" onClick={() => void start()} disabled={!hydrated} data-testid="run-start">
            Start
          </Button>
          <span className="pb-1.5 text-xs text-slate-500" data-testid="run-size">
            {runSize(form)}
          </span>
        </div>
      </Card>
      {error && (
        <p className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert">
          {error}
        </p>
      )}
      <Card>
        <CardHeader title="Runs" />
        {runs.length === 0 ? (
          <Empty>
            No run yet. A run plays every chosen environment at every d of the range with each seed; its episodes appear
            in Episodes (filter by run) and its pass rates here.
          </Empty>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="runs">
            {runs.map((r) => (
              <li
                key={r.id}
                className={`flex flex-wrap items-center gap-3 px-4 py-2 ${r.id === selected ? 'bg-sky-50' : ''}`}
                data-run-id={r.id}
              >
                <a
                  href={runsUrl(r.id, '')}
                  className="font-medium text-sky-700 underline"
                  onClick={(e) => {
                    e.preventDefault();
                    setSelected(r.id);
                  }}
                  data-testid="run-name-link"
                >
                  {r.name}
                </a>
                <Link
                  href={`/runs/${encodeURIComponent(`batch:${r.id}`)}`}
                  className="text-xs text-sky-700 underline"
                  data-testid="run-view-link"
                >
                  run view
                </Link>
                <span className="text-xs text-slate-500">{r.player}</span>
                <span className="text-xs text-slate-500">{fmtDateTime(r.createdAt)}</span>
                <progress max={r.total} value={r.done} className="w-40" data-testid="run-progress" />
                <span className="text-xs">
                  {r.done}/{r.total} · {r.state}
                  {r.infraFailures > 0 && (
                    <span className="text-amber-700"> · {r.infraFailures} infrastructure failures</span>
                  )}
                </span>
                {r.state === 'running' && (
                  <Button size="sm" onClick={() => void attempt(trpc.runs.cancel.mutate({ id: r.id })).then(reload)}>
                    Cancel
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {selectedRow && (
        <Card>
          <CardHeader
            title={`${selectedRow.name}: pass rate (mean reward) per env × d`}
            right={
              <span className="flex flex-wrap items-center gap-3">
                <BundleButton
                  query={`run=${encodeURIComponent(`batch:${selectedRow.id}`)}`}
                  count={selectedRow.total}
                />
                <Link
                  className="text-xs text-sky-700 underline"
                  href={`/episodes?run=${encodeURIComponent(`batch:${selectedRow.id}`)}`}
                  data-testid="run-episodes-link"
                >
                  episodes
                </Link>
              </span>
            }
          />
          <div className="space-y-4 overflow-x-auto p-4">
            <RunHeatmap stats={stats} />
            <RunCurves stats={stats} />
            <label className="flex items-center gap-2 text-sm">
              Compare with
              <select
                className="rounded-md border border-slate-300 px-2 py-1"
                value={other}
                onChange={(e) => setOther(e.target.value)}
                data-testid="run-compare"
              >
                <option value="">—</option>
                {runs
                  .filter((r) => r.id !== selected)
                  .map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name} ({fmtDateTime(r.createdAt)})
                    </option>
                  ))}
              </select>
            </label>
            {flips && (
              <div className="text-sm" data-testid="run-flips">
                <p className="text-slate-600">
                  {flips.length} task(s) flipped between the two runs (tasks scored in both).{' '}
                  <Link
                    className="text-sky-700 underline"
                    href={`/episodes/compare?ra=${encodeURIComponent(`run:batch:${other}`)}&rb=${encodeURIComponent(`run:batch:${selected}`)}`}
                    data-testid="run-compare-link"
                  >
                    compare cell by cell
                  </Link>
                </p>
                <ul className="mt-1 list-disc pl-5">
                  {flips.map((f) => (
                    <li key={`${f.envId}-${f.d}-${f.seed}`}>
                      {f.envId} d={f.d} seed={f.seed}:{' '}
                      <Link className="underline" href={`/episodes/${f.a}`}>
                        {f.aPass ? 'pass' : 'fail'}
                      </Link>{' '}
                      →{' '}
                      <Link className="underline" href={`/episodes/${f.b}`}>
                        {f.bPass ? 'pass' : 'fail'}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </Card>
      )}
    </div>
  );
}

/** The name a run gets when none is typed (the server's default, shown as the placeholder). */
function defaultName(f: { player: string; envs: string[]; dFrom: number; dTo: number; seeds: number }): string {
  if (!f.player || f.envs.length === 0 || f.dTo < f.dFrom || f.seeds < 1) return '';
  const who = f.player.replace(/^connection:/, '').replace(/^agent:/, '');
  const ds = Array.from({ length: f.dTo - f.dFrom + 1 }, (_, i) => f.dFrom + i);
  return defaultRunName(who, { envs: f.envs, ds, seeds: Array.from({ length: f.seeds }, (_, i) => i + 1) });
}

function NumberField(props: {
  label: string;
  min: number;
  max: number;
  value: number;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
  testId?: string;
}) {
  return (
    <label className="space-y-1">
      <span className="block text-slate-600">{props.label}</span>
      <input
        className="w-16 rounded-md border border-slate-300 px-2 py-1"
        type="number"
        min={props.min}
        max={props.max}
        value={props.value}
        onChange={props.onChange}
        data-testid={props.testId}
      />
    </label>
  );
}
