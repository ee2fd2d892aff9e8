// Imported episodes: the reward as recorded beside this engine's, component by component.
import type { InspectorExtras } from '@/server/inspector/episode-data';
import { differingNames, PART_LABELS } from '@/components/reward/part-labels';
import type { RewardParts } from '@/server/inspector/rescore';
import { Badge, Card, CardHeader, cx } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

const show = (v: unknown) =>
  typeof v === 'boolean'
    ? v
      ? 'yes'
      : 'no'
    : typeof v === 'number'
      ? Number.isInteger(v)
        ? String(v)
        : fmtReward(v)
      : '—';

export function ImportRescorePanel({
  extras,
  recordedReward,
  storedParts,
}: {
  extras: InspectorExtras;
  recordedReward: number | null;
  storedParts: RewardParts | null;
}) {
  const rs = extras.rescored;
  if (!rs) return null;
  const recParts = ((extras.recorded?.parts ?? null) as RewardParts | null) ?? storedParts;
  const differs = new Set(rs.differs.map((d) => d.part));
  return (
    <Card data-testid="rescore-panel">
      <CardHeader
        title="Recorded vs this engine"
        right={
          <Badge tone={rs.method === 'none' ? 'slate' : 'violet'}>
            {rs.method === 'none' ? 'shown as recorded' : `re-scored by ${rs.method}`}
          </Badge>
        }
      />
      <div className="space-y-2 p-4 text-sm">
        <div className="flex gap-6">
          <div>
            <div className="text-xs text-slate-500">recorded</div>
            <div className="text-2xl font-semibold tabular-nums" data-testid="recorded-reward">
              {fmtReward(extras.recorded?.reward ?? recordedReward)}
            </div>
          </div>
          <div>
            <div className="text-xs text-slate-500">this engine</div>
            <div className="text-2xl font-semibold tabular-nums text-violet-800" data-testid="rescored-reward">
              {rs.reward === null ? '—' : fmtReward(rs.reward)}
            </div>
          </div>
        </div>
        {rs.differs.length > 0 && (
          <p className="text-sm text-amber-900" data-testid="rescore-differs">
            They differ in <strong>{differingNames(rs.differs.map((d) => d.part)).join(', ')}</strong>: the same turns,
            scored by the recorded run and by this engine&apos;s reward rules.
          </p>
        )}
        {rs.parts && (
          <table className="w-full text-xs tabular-nums" data-testid="rescore-table">
            <thead className="text-slate-500">
              <tr>
                <th className="text-left font-medium">part</th>
                <th className="text-right font-medium">recorded</th>
                <th className="text-right font-medium">this engine</th>
              </tr>
            </thead>
            <tbody>
              {PART_LABELS.map(([k, label]) => (
                <tr
                  key={k}
                  className={cx(differs.has(k) && 'bg-amber-50 font-semibold text-amber-900')}
                  data-differs={differs.has(k) || undefined}
                >
                  <td>{label}</td>
                  <td className="text-right">{show(recParts?.[k])}</td>
                  <td className="text-right">{show(rs.parts?.[k])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="text-xs text-slate-500">{rs.note}</p>
      </div>
    </Card>
  );
}
