'use client';
// Two runs or agents over the same seeds: per env × d, how many tasks both passed, both
// failed, or flipped; and the flipped pairs, each linking to the turn-by-turn compare.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import { Badge, Button, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

type Side = { by: 'player' | 'run'; value: string };
type Facets = { runs: Array<{ key: string; kind: string; name: string }> } | undefined;
/** A side as a person reads it: a run by its name. */
const label = (s: Side, facets: Facets) => {
  const run = s.by === 'run' ? facets?.runs.find((r) => r.key === s.value) : undefined;
  return run ? `${run.kind} run “${run.name}”` : `${s.by} ${s.value}`;
};

export function RunCompare({ a, b }: { a: Side; b: Side }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.compareRuns.queryOptions({ a, b }));
  const facets = useQuery(trpc.inspector.facets.queryOptions());
  if (q.isLoading) return <Empty>Loading…</Empty>;
  if (q.isError) return <Empty>{q.error.message}</Empty>;
  const { cells, flipped } = q.data!;
  return (
    <div className="space-y-4">
      <RunPicker a={a} b={b} />
      <Card>
        <CardHeader title={`A = ${label(a, facets.data)} · B = ${label(b, facets.data)}: same env, d and seed`} />
        {cells.length === 0 ? (
          <Empty>No (env, d, seed) was played by both.</Empty>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm tabular-nums" data-testid="run-compare-table">
              <thead className="border-b border-slate-200 text-xs text-slate-500">
                <tr>
                  {[
                    'env',
                    'd',
                    'seeds',
                    'both pass',
                    'both fail',
                    'A only (lost in B)',
                    'B only (gained)',
                    'mean reward A',
                    'mean reward B',
                  ].map((h) => (
                    <th key={h} className="px-3 py-2 text-left font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {cells.map((c) => (
                  <tr key={`${c.envId}-${c.d}`}>
                    <td className="px-3 py-1.5 font-medium">{c.envId}</td>
                    <td className="px-3 py-1.5">{c.d}</td>
                    <td className="px-3 py-1.5">{c.pairs}</td>
                    <td className="px-3 py-1.5">{c.bothPass}</td>
                    <td className="px-3 py-1.5">{c.bothFail}</td>
                    <td className="px-3 py-1.5">{c.lost > 0 ? <Badge tone="red">{c.lost}</Badge> : 0}</td>
                    <td className="px-3 py-1.5">{c.gained > 0 ? <Badge tone="green">{c.gained}</Badge> : 0}</td>
                    <td className="px-3 py-1.5">{fmtReward(c.meanRewardA)}</td>
                    <td className="px-3 py-1.5">{fmtReward(c.meanRewardB)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {flipped.length > 0 && (
        <Card>
          <CardHeader title={`Tasks that flipped (${flipped.length})`} />
          <ul className="divide-y divide-slate-100 text-sm" data-testid="flipped-list">
            {flipped.map((f) => (
              <li key={`${f.a}-${f.b}`} className="flex flex-wrap items-center gap-3 px-4 py-1.5">
                <span className="font-medium">
                  {f.envId} d={f.d} seed {f.seed}
                </span>
                <Badge tone={f.aPass ? 'green' : 'red'}>
                  A {f.aPass ? 'pass' : 'fail'} {fmtReward(f.aReward)}
                </Badge>
                <Badge tone={f.bPass ? 'green' : 'red'}>
                  B {f.bPass ? 'pass' : 'fail'} {fmtReward(f.bReward)}
                </Badge>
                <Link href={`/episodes/compare?a=${f.a}&b=${f.b}`} className="text-sky-700 underline">
                  compare turns
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

export function RunPicker({ a, b }: { a?: Side; b?: Side }) {
  const trpc = useTRPC();
  const router = useRouter();
  const facets = useQuery(trpc.inspector.facets.queryOptions());
  const [sa, setSa] = useState(a ? `${a.by}:${a.value}` : '');
  const [sb, setSb] = useState(b ? `${b.by}:${b.value}` : '');
  const options: Array<[string, string]> = [
    ...(facets.data?.players ?? []).map((p) => [`player:${p}`, `player ${p}`] as [string, string]),
    ...(facets.data?.runs ?? []).map((r) => [`run:${r.key}`, `${r.kind} run ${r.name}`] as [string, string]),
  ];
  const names = new Map(options);
  const pick = (v: string, set: (s: string) => void, name: string) => (
    <select
      aria-label={name}
      className="min-w-0 max-w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      value={v}
      onChange={(e) => set(e.target.value)}
    >
      <option value="">choose…</option>
      {v && !names.has(v) && <option value={v}>{v.replace(':', ' ')}</option>}
      {options.map(([o, name]) => (
        <option key={o} value={o}>
          {name}
        </option>
      ))}
    </select>
  );
  return (
    <Card>
      <CardHeader title="Compare two agents or runs over the same seeds" />
      <form
        className="flex flex-wrap items-center gap-2 p-4 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (sa && sb) router.push(`/episodes/compare?ra=${encodeURIComponent(sa)}&rb=${encodeURIComponent(sb)}`);
        }}
      >
        {/* each side's letter stays with its menu when the row wraps */}
        <span className="flex min-w-0 items-center gap-1">A {pick(sa, setSa, 'side A')}</span>
        <span className="flex min-w-0 items-center gap-1">B {pick(sb, setSb, 'side B')}</span>
        <Button type="submit" disabled={!sa || !sb}>
          Compare
        </Button>
        <span className="text-xs text-slate-500">
          or pick two episodes on the list and press &quot;Compare the two&quot;.
        </span>
      </form>
    </Card>
  );
}
