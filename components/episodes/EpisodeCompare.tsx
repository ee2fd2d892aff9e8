'use client';
// Two episodes side by side, turn-aligned: the first divergence highlighted, each side's
// calls and results, and the reward breakdown difference.
import { useMutation, useQuery } from '@tanstack/react-query';
import { partLabel } from '@/components/reward/part-labels';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import type { TurnSide } from '@/server/inspector/compare';
import { Badge, Button, Card, CardHeader, Empty, cx } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

const brief = (v: unknown, max = 160) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

const showPart = (v: number | boolean) =>
  typeof v === 'boolean' ? (v ? 'yes' : 'no') : Number.isInteger(v) ? String(v) : fmtReward(v);

function Side({ s }: { s: TurnSide | null }) {
  if (!s) return <p className="text-xs italic text-slate-400">no such turn</p>;
  return (
    <div className="min-w-0 space-y-1.5 text-xs [overflow-wrap:anywhere]">
      {s.agent !== null && (
        <p className="rounded bg-sky-50 px-2 py-1 text-slate-800">
          {s.agent || <em className="text-slate-400">(empty message)</em>}
        </p>
      )}
      {s.calls.map((c, i) => (
        <div
          key={i}
          className={cx('rounded border px-2 py-1', c.error ? 'border-rose-200 bg-rose-50' : 'border-slate-200')}
        >
          <span className="font-mono font-semibold">{c.name}</span>{' '}
          <span className="font-mono text-slate-600">{brief(c.args, 120)}</span>
          <div className="mt-0.5 font-mono text-[11px] text-slate-500">
            {c.error ? `error: ${c.error}` : `→ ${brief(c.result)}`}
          </div>
        </div>
      ))}
      {s.answer !== null && s.answer !== undefined && (
        <p className="rounded border border-emerald-200 bg-emerald-50 px-2 py-1 font-mono text-[11px]">
          answer {brief(s.answer, 240)}
        </p>
      )}
      {s.customer !== null && <p className="rounded bg-slate-100 px-2 py-1 text-slate-700">customer: {s.customer}</p>}
    </div>
  );
}

export function EpisodeCompare({ a, b }: { a: string; b: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.compare.queryOptions({ a, b }));
  if (q.isLoading) return <Empty>Loading…</Empty>;
  if (q.isError) return <Empty>Could not compare: {q.error.message}</Empty>;
  const { a: A, b: B, turns, firstDivergence, differs } = q.data!;
  const head = (ep: typeof A, label: string) => (
    <div className="min-w-0">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <Link href={`/episodes/${ep.id}`} className="font-medium text-sky-700 underline">
        {ep.envId} d={ep.d} seed {ep.seed}
      </Link>
      <p className="text-xs text-slate-600">
        {ep.player} · reward {fmtReward(ep.reward)} ·{' '}
        {ep.isCorrect ? 'pass' : ep.status === 'active' ? 'active' : 'fail'}
      </p>
    </div>
  );
  const sameTask = A.envId === B.envId && A.d === B.d && A.seed === B.seed;
  return (
    <div className="space-y-4">
      <Card>
        <div className="grid grid-cols-2 gap-4 p-4">
          {head(A, 'A')}
          {head(B, 'B')}
        </div>
        <div className="border-t border-slate-100 px-4 py-2 text-sm" data-testid="first-divergence">
          {firstDivergence === null ? (
            <span className="text-emerald-700">The two episodes never diverge.</span>
          ) : (
            <span>
              <Badge tone="amber">first divergence</Badge>{' '}
              <a href={`#cmp-turn-${firstDivergence}`} className="font-medium text-amber-800 underline">
                {firstDivergence === 0 ? 'at the opening' : `at turn ${firstDivergence}`}
              </a>
              {!sameTask && (
                <span className="ml-2 text-xs text-slate-500">(different tasks: env, d or seed differ)</span>
              )}
            </span>
          )}
        </div>
        <div className="border-t border-slate-100 px-4 py-2" data-testid="breakdown-diff">
          {differs.length === 0 ? (
            <p className="text-xs text-slate-500">Same reward breakdown.</p>
          ) : (
            <table className="text-xs tabular-nums">
              <thead className="text-slate-500">
                <tr>
                  <th className="pr-4 text-left font-medium">part</th>
                  <th className="pr-4 text-right font-medium">A</th>
                  <th className="text-right font-medium">B</th>
                </tr>
              </thead>
              <tbody>
                {differs.map((d) => (
                  <tr key={d.part}>
                    <td className="pr-4">{partLabel(d.part)}</td>
                    <td className="pr-4 text-right">{showPart(d.recorded)}</td>
                    <td className="text-right">{showPart(d.rescored)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </Card>
      <Card>
        <CardHeader title="Turn by turn" />
        <div className="divide-y divide-slate-100">
          {turns.map((t) => (
            <div
              key={t.turn}
              id={`cmp-turn-${t.turn}`}
              className={cx(
                'grid scroll-mt-4 grid-cols-[3rem_1fr_1fr] gap-3 px-4 py-3',
                !t.same && 'bg-amber-50',
                t.turn === firstDivergence && 'ring-2 ring-inset ring-amber-400',
              )}
              data-testid="compare-turn"
              data-same={t.same}
            >
              <div className="text-xs font-medium text-slate-500">{t.turn === 0 ? 'open' : `T${t.turn}`}</div>
              <Side s={t.a} />
              <Side s={t.b} />
            </div>
          ))}
        </div>
      </Card>
    </div>
  );
}

export function PickSecond({ a }: { a: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [other, setOther] = useState('');
  const twin = useQuery(trpc.inspector.sameSeed.queryOptions({ id: a }));
  const play = useMutation(
    trpc.inspector.playOracle.mutationOptions({ onSuccess: (r) => router.push(`/episodes/compare?a=${a}&b=${r.id}`) }),
  );
  return (
    <Card>
      <CardHeader
        title={
          <>
            Compare episode{' '}
            <Link href={`/episodes/${a}`} className="font-mono text-sky-700 underline" data-testid="compare-first">
              {a}
            </Link>{' '}
            with…
          </>
        }
      />
      <div className="space-y-3 p-4 text-sm">
        {twin.data?.id ? (
          <Link
            href={`/episodes/compare?a=${a}&b=${twin.data.id}`}
            className="font-medium text-sky-700 underline"
            data-testid="compare-oracle"
          >
            the oracle on the same seed ({twin.data.envId} d={twin.data.d} seed {twin.data.seed})
          </Link>
        ) : (
          <div className="flex items-center gap-2">
            <Button
              onClick={() => play.mutate({ id: a })}
              disabled={play.isPending || twin.isLoading}
              data-testid="play-oracle"
            >
              {play.isPending ? 'Playing…' : 'Play the oracle on the same seed and compare'}
            </Button>
            {play.isError && <span className="text-xs text-rose-700">{play.error.message}</span>}
          </div>
        )}
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (other.trim()) router.push(`/episodes/compare?a=${a}&b=${encodeURIComponent(other.trim())}`);
          }}
        >
          <input
            className="flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
            placeholder="or another episode id"
            aria-label="other episode id"
            value={other}
            onChange={(e) => setOther(e.target.value)}
          />
          <Button type="submit">Compare</Button>
        </form>
      </div>
    </Card>
  );
}
