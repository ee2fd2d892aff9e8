// Pass rate per env × d as a heatmap (mean reward in each cell); infrastructure failures apart.
import type { RunCellStats } from '@/server/models/runs';

const shade = (p: number | null) =>
  p === null ? 'rgb(241 245 249)' : `hsl(${Math.round(p * 130)} 70% ${88 - p * 30}%)`;

export function RunHeatmap({ stats }: { stats: RunCellStats[] }) {
  const envs = [...new Set(stats.map((s) => s.envId))];
  const ds = [...new Set(stats.map((s) => s.d))].sort((a, b) => a - b);
  const cell = (env: string, d: number) => stats.find((s) => s.envId === env && s.d === d);
  return (
    <table className="text-xs" data-testid="run-heatmap">
      <thead>
        <tr>
          <th className="px-2 py-1 text-left text-slate-500">env \ d</th>
          {ds.map((d) => (
            <th key={d} className="px-2 py-1 text-slate-500">
              {d}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {envs.map((env) => (
          <tr key={env}>
            <th className="px-2 py-1 text-left font-medium text-slate-700">{env}</th>
            {ds.map((d) => {
              const c = cell(env, d);
              return (
                <td
                  key={d}
                  className="min-w-16 px-2 py-1 text-center"
                  style={{ background: shade(c?.passRate ?? null) }}
                  title={c ? `${c.scored} scored, ${c.infraFailures} infrastructure failures` : 'not played'}
                >
                  {c?.passRate == null ? '—' : `${Math.round(c.passRate * 100)}%`}
                  <div className="text-[10px] text-slate-600">
                    {c?.meanReward == null ? '' : c.meanReward.toFixed(2)}
                  </div>
                  {c && c.infraFailures > 0 && (
                    <div className="text-[10px] text-amber-700">{c.infraFailures} infra</div>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
