// Pass rate per env × d of one run (mean reward in each cell); infrastructure failures apart.
import { Heatmap } from '@/components/charts/Heatmap';
import type { RunCellStats } from '@/server/models/runs';

export function RunHeatmap({ stats }: { stats: RunCellStats[] }) {
  const cells = stats.map((s) => ({
    envId: s.envId,
    d: s.d,
    passRate: s.passRate,
    meanReward: s.meanReward,
    title: `${s.scored} scored, ${s.infraFailures} infrastructure failures`,
    note: s.infraFailures > 0 ? <div className="text-amber-700">{s.infraFailures} infra</div> : undefined,
  }));
  return <Heatmap cells={cells} testId="run-heatmap" />;
}
