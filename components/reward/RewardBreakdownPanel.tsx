// The reward at the end of an episode: chart of weighted components, the numbers,
// and the evidence lists whose turn numbers link into the replay.
import Link from 'next/link';
import type { EnvId, EvidenceItem, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { Badge, Card, CardHeader } from '@/components/ui/primitives';
import { fmtNumber, fmtReward, fmtTermination } from '@/lib/format';
import { EfficiencyLine } from '@/components/replay/EfficiencyLine';
import { RewardChart } from './RewardChart';
import { WhyFailed } from './WhyFailed';
import { PART_MEANINGS } from './part-labels';

/** Runs of passing lines this long fold into one line (a restock sweep adds dozens of them). */
const FOLD_PASSING = 5;

function EvidenceLine({ e, episodeId }: { e: EvidenceItem; episodeId: string }) {
  return (
    <li className="flex items-start gap-2 text-sm">
      <span className={e.ok ? 'text-emerald-600' : 'text-rose-600'} aria-label={e.ok ? 'ok' : 'not ok'}>
        {e.ok ? '✓' : '✗'}
      </span>
      <span className="min-w-0 flex-1 text-slate-700 [overflow-wrap:anywhere]">
        {e.text}
        {e.turns.length > 0 && (
          <span className="ml-1.5 whitespace-nowrap text-xs text-slate-500">
            {e.turns.length === 1 ? 'turn ' : 'turns '}
            {e.turns.map((t, j) => (
              <span key={t}>
                {j > 0 && ', '}
                <Link href={`/episodes/${episodeId}?turn=${t}#turn-${t}`} className="text-sky-700 underline">
                  {t}
                </Link>
              </span>
            ))}
          </span>
        )}
      </span>
    </li>
  );
}

/** Consecutive items, long runs of passing ones kept together to fold. */
function segments(items: EvidenceItem[]): EvidenceItem[][] {
  const out: EvidenceItem[][] = [];
  for (let i = 0; i < items.length;) {
    let j = i;
    while (j < items.length && items[j].ok) j++;
    if (j - i >= FOLD_PASSING) {
      out.push(items.slice(i, j));
      i = j;
    } else out.push([items[i++]]);
  }
  return out;
}

function EvidenceList({ title, items, episodeId }: { title: string; items: EvidenceItem[]; episodeId: string }) {
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {items.length === 0 ? (
        <p className="text-xs text-slate-400">no evidence recorded</p>
      ) : (
        <ul className="space-y-1" data-testid={`evidence-${title.split(' ')[0].toLowerCase()}`}>
          {segments(items).map((run, i) =>
            run.length === 1 ? (
              <EvidenceLine key={i} e={run[0]} episodeId={episodeId} />
            ) : (
              <li key={i} className="text-sm" data-testid="evidence-folded">
                <details>
                  <summary className="cursor-pointer text-slate-600">
                    <span className="text-emerald-600">✓</span> {run.length} passing lines, the first: {run[0].text}
                  </summary>
                  <ul className="mt-1 space-y-1">
                    {run.map((e, j) => (
                      <EvidenceLine key={j} e={e} episodeId={episodeId} />
                    ))}
                  </ul>
                </details>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

export function RewardBreakdownPanel({
  envId,
  passRule,
  breakdown,
  episodeId,
  termination,
}: {
  envId: EnvId;
  /** the env's pass rule as the engine states it (EnvInfo.passRule) */
  passRule: string | undefined;
  breakdown: RewardBreakdown;
  episodeId: string;
  termination: TerminationReason | null;
}) {
  const b = breakdown;
  return (
    <Card id="reward" data-testid="reward-breakdown">
      <CardHeader
        title="Reward breakdown"
        right={
          <div className="flex items-center gap-2">
            <span className="text-xs text-slate-500">{fmtTermination(termination)}</span>
            <Badge tone={b.isCorrect ? 'green' : 'red'}>{b.isCorrect ? 'pass' : 'fail'}</Badge>
          </div>
        }
      />
      <div className="space-y-4 p-4">
        <WhyFailed envId={envId} passRule={passRule} breakdown={b} termination={termination} episodeId={episodeId} />
        <div className="flex flex-wrap items-baseline gap-x-6 gap-y-1">
          <div>
            <span className="text-xs uppercase tracking-wide text-slate-500">total</span>
            <div className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="reward-total">
              {fmtReward(b.total)}
            </div>
          </div>
          <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm tabular-nums">
            {(
              [
                ['r_task', fmtReward(b.rTask)],
                ['r_eff', fmtReward(b.rEff)],
                ['r_hall', fmtReward(b.rHall)],
                ['T', String(b.turns)],
                ['T_user', String(b.tUser)],
                // revision 2 normalises r_eff by T_ref; older breakdowns (no tRef) used T_max
                b.tRef !== undefined
                  ? ['T_eff / T_ref', `${b.tEff} / ${b.tRef}`]
                  : ['T_eff / T_max', `${b.tEff} / ${b.tMax}`],
              ] as const
            ).map(([k, v]) => (
              <div key={k} className="flex gap-1.5">
                <dt className="cursor-help text-slate-500 underline decoration-dotted" title={PART_MEANINGS[k]}>
                  {k}
                </dt>
                <dd className="font-medium text-slate-800">{v}</dd>
              </div>
            ))}
          </dl>
        </div>
        {/* r_eff with its formula and numbers, wherever r_eff is shown (playground and replay) */}
        <EfficiencyLine breakdown={b} />
        <RewardChart breakdown={b} />
        {Object.keys(b.task.metrics).length > 0 && (
          <div className="flex flex-wrap gap-2 text-xs">
            {Object.entries(b.task.metrics).map(([k, v]) => (
              <Badge key={k}>
                {k} = {fmtNumber(v)}
              </Badge>
            ))}
          </div>
        )}
        <div className="space-y-3">
          <EvidenceList title="Task evidence" items={b.evidence.task} episodeId={episodeId} />
          <EvidenceList title="Efficiency evidence" items={b.evidence.eff} episodeId={episodeId} />
          <EvidenceList title="Hallucination evidence" items={b.evidence.hall} episodeId={episodeId} />
        </div>
      </div>
    </Card>
  );
}
