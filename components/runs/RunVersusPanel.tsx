// Another run (or another train step of this one) over the same prompts: which groups gained or
// lost a learning signal, which tasks flipped. A plain GET form: the comparison lives in the URL.
import Link from 'next/link';
import { Card, CardHeader } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';
import type { RunOption } from '@/server/inspector/run-keys';
import type { PromptChange, RunVersus } from '@/server/inspector/run-view';
import { groupViewUrl, runViewUrl } from './urls';

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm';

export function RunVersusPanel({
  run,
  runs,
  steps,
  versus,
}: {
  run: string;
  runs: RunOption[];
  steps: Array<number | null>;
  versus: { vs: string; stepA?: number; stepB?: number; result: RunVersus } | null;
}) {
  const stepOptions = steps.filter((s): s is number => s !== null);
  return (
    <Card>
      <CardHeader title="Compare with another run or train step" />
      <form action={runViewUrl(run)} method="get" className="flex flex-wrap items-end gap-3 px-4 py-3 text-sm">
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          other run (B)
          <select name="vs" defaultValue={versus?.vs ?? run} className={field} data-testid="versus-run">
            <option value={run}>this run</option>
            {runs
              .filter((r) => r.key !== run)
              .map((r) => (
                <option key={r.key} value={r.key}>
                  {r.kind}: {r.name}
                </option>
              ))}
          </select>
        </label>
        {stepOptions.length > 0 && (
          <label className="flex flex-col gap-1 text-xs text-slate-600">
            this run&apos;s step (A)
            <select name="stepA" defaultValue={versus?.stepA ?? ''} className={field}>
              <option value="">latest per prompt</option>
              {stepOptions.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
        )}
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          B&apos;s step
          <input
            name="stepB"
            inputMode="numeric"
            defaultValue={versus?.stepB ?? ''}
            placeholder="latest"
            className={`${field} w-24`}
          />
        </label>
        <button
          type="submit"
          className="rounded-md bg-sky-700 px-3 py-1.5 font-medium text-white"
          data-testid="versus-go"
        >
          Compare
        </button>
      </form>
      {versus && <VersusResult run={run} vs={versus.vs} r={versus.result} />}
    </Card>
  );
}

function VersusResult({ run, vs, r }: { run: string; vs: string; r: RunVersus }) {
  const lists: Array<[string, PromptChange[], string]> = [
    ['gained a learning signal', r.gainedVariance, 'gained'],
    ['lost their learning signal', r.lostVariance, 'lost'],
    ['tasks now passing (most rollouts)', r.nowPass, 'now-pass'],
    ['tasks now failing', r.nowFail, 'now-fail'],
  ];
  return (
    <div className="space-y-3 border-t border-slate-100 px-4 py-3 text-sm" data-testid="versus-result">
      <p className="text-slate-600">
        {r.matched} prompts (env, d, seed) in both. A task passes when more than half its rollouts pass.
      </p>
      {lists.map(([title, xs, id]) => (
        <details key={id} open={xs.length > 0 && xs.length <= 20} data-testid={`versus-${id}`}>
          <summary className="cursor-pointer font-medium text-slate-700">
            {xs.length} {title}
          </summary>
          <ul className="mt-1 space-y-0.5 pl-4">
            {xs.slice(0, 200).map((c) => (
              <li key={`${c.a.key}|${c.b.key}`}>
                {c.env} d {c.d} seed {c.seed}:{' '}
                <Link href={groupViewUrl(run, c.a.slug)} className="text-sky-700 underline">
                  A {c.a.passed}/{c.a.size} passed, mean {fmtReward(c.a.mean)}
                </Link>{' '}
                →{' '}
                <Link href={groupViewUrl(vs, c.b.slug)} className="text-sky-700 underline">
                  B {c.b.passed}/{c.b.size}, mean {fmtReward(c.b.mean)}
                </Link>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
