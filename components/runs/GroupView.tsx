// /runs/<run>/groups/<group>: the G rollouts of one group side by side (a column each): reward,
// advantage, reward parts, termination, turns, who failed; where their actions part; and, for a
// group whose rewards are all equal, why. One link opens its best and worst rollouts aligned.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge, Card, CardHeader } from '@/components/ui/primitives';
import { fmtReward, fmtTermination } from '@/lib/format';
import type { Attribution } from '@/server/inspector/attribution';
import type { GroupCause } from '@/server/inspector/group-cause';
import type { Group } from '@/server/inspector/groups';
import { KIND_LABELS } from './GroupTable';
import { runViewUrl } from './urls';

const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(3)}`;

export function GroupView({
  run,
  group: g,
  cause,
  attributions,
}: {
  run: string;
  group: Group;
  cause: GroupCause;
  attributions: Attribution[];
}) {
  const byReward = [...g.rollouts].sort((a, b) => b.reward - a.reward);
  const best = byReward[0];
  const worst = byReward.at(-1)!;
  const rows: Array<[string, (r: Group['rollouts'][number], i: number) => ReactNode]> = [
    ['reward', (r) => fmtReward(r.reward)],
    ['advantage (reward − mean)', (r) => signed(r.advantage)],
    ['normalised advantage (÷ std)', (r) => signed(r.normalizedAdvantage)],
    ['r_task', (r) => fmtReward(r.components?.rTask)],
    ['r_eff', (r) => fmtReward(r.components?.rEff)],
    ['r_hall', (r) => fmtReward(r.components?.rHall)],
    ['passed', (r) => (r.isCorrect ? <Badge tone="green">pass</Badge> : <Badge tone="red">fail</Badge>)],
    ['termination', (r) => fmtTermination(r.termination)],
    ['turns', (r) => r.turns],
    [
      'who failed',
      (_r, i) =>
        attributions[i].party === 'none' ? (
          '—'
        ) : (
          <span title={attributions[i].detail}>
            {attributions[i].party}: {attributions[i].reason.replace(/_/g, ' ')}
          </span>
        ),
    ],
  ];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 text-xs">
        <Link href={runViewUrl(run)} className="text-sky-700 underline" data-testid="back-to-run">
          ← run {run}
        </Link>
        <h1 className="text-xl font-semibold text-slate-900" data-testid="group-title">
          {g.rollouts[0].group ? `${g.rollouts[0].group}: ` : ''}
          {g.env} d {g.d} seed {g.seed}
          {g.trainStep !== null ? ` · step ${g.trainStep}` : ''}
        </h1>
        <span className="text-slate-600">
          G = {g.rollouts.length}, mean {fmtReward(g.mean)}, std {g.std.toFixed(3)}
        </span>
        {g.kind ? (
          <Badge tone="red">no learning signal: {KIND_LABELS[g.kind]}</Badge>
        ) : (
          <Badge tone="green">learning signal</Badge>
        )}
      </div>
      <Card>
        <CardHeader title={g.zeroVariance ? 'Why every rollout got the same reward' : 'What the rollouts share'} />
        <div className="space-y-2 px-4 py-3 text-sm" data-testid="group-cause">
          {cause.causes.length === 0 ? (
            <p className="text-slate-600">
              Nothing shared by every rollout (no common error, evidence line or termination).
            </p>
          ) : (
            <ul className="list-disc space-y-0.5 pl-5">
              {cause.causes.map((c) => (
                <li key={c.text} data-kind={c.kind}>
                  {c.text}
                </li>
              ))}
            </ul>
          )}
          <p data-testid="divergence">
            {cause.divergenceTurn === null
              ? 'The rollouts never act differently: every turn the same tool calls and answer.'
              : `The rollouts first act differently at turn ${cause.divergenceTurn}.`}
          </p>
          {best.id !== worst.id && (
            <Link
              href={`/episodes/compare?a=${encodeURIComponent(best.id)}&b=${encodeURIComponent(worst.id)}`}
              className="inline-block rounded-md border border-slate-300 px-2 py-1 font-medium text-sky-700"
              data-testid="compare-best-worst"
            >
              {g.zeroVariance
                ? 'Compare two of its rollouts turn by turn (equal rewards) →'
                : `Compare best (${fmtReward(best.reward)}) and worst (${fmtReward(worst.reward)}) turn by turn →`}
            </Link>
          )}
        </div>
      </Card>
      <Card>
        <CardHeader title="Rollouts side by side" />
        <div className="overflow-x-auto">
          <table className="w-full text-sm tabular-nums" data-testid="group-rollouts">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th className="px-3 py-1.5 font-medium" />
                {g.rollouts.map((r, i) => (
                  <th key={r.id} className="px-3 py-1.5 font-medium">
                    <Link href={`/episodes/${r.id}`} className="text-sky-700 underline">
                      rollout {i + 1}
                    </Link>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map(([label, cell]) => (
                <tr key={label}>
                  <th className="px-3 py-1 text-left text-xs font-medium whitespace-nowrap text-slate-500">{label}</th>
                  {g.rollouts.map((r, i) => (
                    <td key={r.id} className="px-3 py-1">
                      {cell(r, i)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}
