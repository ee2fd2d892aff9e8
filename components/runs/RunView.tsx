// /runs/<run>: a run's reward, pass rate and effective prompt ratio over train steps and per
// env × d, zero-variance groups by kind, reward histograms, the worst groups (to the group view),
// the curriculum window where a curriculum drove the run, and another run or step to compare.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { pct } from '@/components/charts/format';
import { Heatmap } from '@/components/charts/Heatmap';
import { BundleButton } from '@/components/episodes/BundleButton';
import { HChart } from '@/components/curriculum/HChart';
import { Card, CardHeader, Empty } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';
import type { EnvId } from '@/server/engine/types';
import type { RunOption } from '@/server/inspector/run-keys';
import type { RunSummary, RunVersus } from '@/server/inspector/run-view';
import { GroupTable, KIND_LABELS } from './GroupTable';
import { RewardHistograms } from './RewardHistograms';
import { RatioCurves, StepCurves } from './StepCurves';
import { RunVersusPanel } from './RunVersusPanel';
import { runViewUrl } from './urls';

export interface RunViewProps {
  run: string;
  name: string;
  summary: RunSummary;
  passThreshold: number;
  by: 'env' | 'd';
  curriculum: { timeline: Parameters<typeof HChart>[0]['timeline']; envs: EnvId[]; playable: EnvId[] } | null;
  runs: RunOption[];
  versus: { vs: string; stepA?: number; stepB?: number; result: RunVersus } | null;
}

const Figure = ({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) => (
  <div className="min-w-28" data-testid={testId}>
    <div className="text-xs text-slate-500">{label}</div>
    <div className="text-lg font-semibold text-slate-900 tabular-nums">{value}</div>
  </div>
);

export function RunView(p: RunViewProps) {
  const { summary: s, run } = p;
  const zeroTotal = Object.values(s.zeroVariance).reduce((a, n) => a + n, 0);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 text-xs">
        <Link href="/runs" className="text-sky-700 underline">
          ← runs
        </Link>
        <h1 className="text-xl font-semibold text-slate-900" data-testid="run-title">
          {p.name}
        </h1>
        <code className="text-slate-500">{run}</code>
        <Link href={`/episodes?run=${encodeURIComponent(run)}`} className="text-sky-700 underline">
          episodes of this run
        </Link>
        <BundleButton query={`run=${encodeURIComponent(run)}`} count={s.total.rollouts} />
      </div>
      {s.total.rollouts === 0 ? (
        <Empty>This run has no finished rollouts yet.</Empty>
      ) : (
        <>
          <Card className="flex flex-wrap gap-6 px-4 py-3" data-testid="run-figures">
            <Figure label="rollouts" value={s.total.rollouts.toLocaleString()} />
            <Figure label="groups" value={s.total.groups.toLocaleString()} />
            <Figure label="mean reward" value={fmtReward(s.total.meanReward)} />
            <Figure label="pass rate" value={pct(s.total.passRate)} />
            <Figure label="effective prompt ratio" value={pct(s.total.effectiveRatio)} testId="run-effective" />
            <p className="basis-full text-xs text-slate-500">
              A group is the rollouts of one prompt (env, d, seed) at one train step, or the trainer&apos;s named group.
              The effective prompt ratio is the share of groups whose rewards are not all equal: GRPO learns only from
              those.
            </p>
          </Card>
          <div className="grid gap-4 lg:grid-cols-2">
            <Card>
              <CardHeader title="Over train steps" />
              <div className="p-3">
                <StepCurves summary={s} />
              </div>
            </Card>
            <Card>
              <CardHeader
                title={`Effective prompt ratio per ${p.by}`}
                right={
                  <span className="flex gap-2 text-xs">
                    {(['env', 'd'] as const).map((b) => (
                      <Link
                        key={b}
                        href={runViewUrl(run, { by: b === 'env' ? undefined : b, vs: p.versus?.vs })}
                        className={b === p.by ? 'font-semibold text-slate-900' : 'text-sky-700 underline'}
                        aria-current={b === p.by ? 'true' : undefined}
                      >
                        per {b}
                      </Link>
                    ))}
                  </span>
                }
              />
              <div className="p-3">
                <RatioCurves summary={s} by={p.by} />
              </div>
            </Card>
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <Card>
              <CardHeader title="Effective prompt ratio, env × d" />
              <div className="p-3">
                <Heatmap
                  testId="ratio-heatmap"
                  cells={s.cells.map((c) => ({
                    envId: c.env,
                    d: c.d,
                    passRate: c.effectiveRatio,
                    meanReward: null,
                    detail: `${c.groups} groups`,
                    title: `${Math.round(c.effectiveRatio * c.groups)} of ${c.groups} groups carry a learning signal`,
                  }))}
                />
              </div>
            </Card>
            <Card>
              <CardHeader title="Pass rate, env × d (mean reward below)" />
              <div className="p-3">
                <Heatmap
                  testId="pass-heatmap"
                  cells={s.cells.map((c) => ({
                    envId: c.env,
                    d: c.d,
                    passRate: c.passRate,
                    meanReward: c.meanReward,
                    title: `${c.rollouts} rollouts`,
                  }))}
                />
              </div>
            </Card>
          </div>
          <Card>
            <CardHeader
              title={`Zero-variance groups: ${zeroTotal} of ${s.total.groups} (${pct(zeroTotal / s.total.groups)})`}
            />
            <ul className="space-y-1 p-3 text-sm" data-testid="zero-variance">
              {(Object.keys(KIND_LABELS) as Array<keyof typeof KIND_LABELS>).map((k) => (
                <li key={k} className="flex items-center gap-3">
                  <span className="w-56 text-slate-700">{KIND_LABELS[k]}</span>
                  <span className="h-3 w-64 rounded bg-slate-100">
                    <span
                      className="block h-3 rounded bg-violet-400"
                      style={{ width: `${(100 * s.zeroVariance[k]) / s.total.groups}%` }}
                    />
                  </span>
                  <span className="tabular-nums text-slate-600" data-testid={`zero-${k}`}>
                    {s.zeroVariance[k]} ({pct(s.zeroVariance[k] / s.total.groups)})
                  </span>
                </li>
              ))}
            </ul>
          </Card>
          {p.curriculum && (
            <Card>
              <CardHeader title="Curriculum window (upper end h per env) over the run" />
              <div className="p-3">
                <HChart {...p.curriculum} />
              </div>
            </Card>
          )}
          <Card>
            <CardHeader
              title={`Reward per env × d: passed green, failed red; dashed: the bin of the pass threshold ${p.passThreshold} (r_task)`}
            />
            <div className="p-3">
              <RewardHistograms histograms={s.histograms} passThreshold={p.passThreshold} />
            </div>
          </Card>
          <Card>
            <CardHeader
              title={`Groups, worst first (${Math.min(s.worst.length, s.total.groups)} of ${s.total.groups})`}
            />
            <p className="px-4 pt-2 text-xs text-slate-500">
              Worst: no learning signal and failing, then no signal and passing, then the lowest mean reward.
            </p>
            <GroupTable run={run} rows={s.worst} />
          </Card>
          <RunVersusPanel run={run} runs={p.runs} versus={p.versus} steps={s.steps.map((x) => x.trainStep)} />
        </>
      )}
    </div>
  );
}
