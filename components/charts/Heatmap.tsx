// env × d grid; cell colour = pass rate (red 0 → green 1), text = pass rate and mean reward
// (or another share 0–1 and its own second line).
// One grid for the inspector's charts and the runs dashboard; each passes its own cell notes.
import type { ReactNode } from 'react';
import { fmtReward } from '@/lib/format';

export function passColor(rate: number): string {
  // hue 0 (red) → 140 (green); light enough for dark text
  return `hsl(${Math.round(140 * Math.min(1, Math.max(0, rate)))} 70% 82%)`;
}

export interface HeatCell {
  envId: string;
  d: number;
  /** null: nothing scored in this cell (shown as —) */
  passRate: number | null;
  meanReward: number | null;
  /** the cell's tooltip */
  title: string;
  /** an extra line under the figures */
  note?: ReactNode;
  /** the second line instead of the mean reward (a heatmap of another share) */
  detail?: string;
}

export function Heatmap({ cells, testId }: { cells: HeatCell[]; testId?: string }) {
  const envs = [...new Set(cells.map((c) => c.envId))];
  const ds = [...new Set(cells.map((c) => c.d))].sort((a, b) => a - b);
  const at = new Map(cells.map((c) => [`${c.envId}|${c.d}`, c]));
  return (
    <div className="overflow-x-auto">
      <table className="border-separate border-spacing-0.5 text-[11px] tabular-nums" data-testid={testId}>
        <thead>
          <tr>
            <th className="px-1 text-left font-medium text-slate-500">env \ d</th>
            {ds.map((d) => (
              <th key={d} className="px-1 font-medium text-slate-500">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {envs.map((env) => (
            <tr key={env}>
              <th className="pr-2 text-left font-medium text-slate-700">{env}</th>
              {ds.map((d) => {
                const c = at.get(`${env}|${d}`);
                return c ? (
                  <td
                    key={d}
                    className="min-w-12 rounded px-1 py-0.5 text-center text-slate-900"
                    style={{ background: c.passRate === null ? undefined : passColor(c.passRate) }}
                    title={c.title}
                    data-testid={`heat-${env}-${d}`}
                  >
                    <div className="font-semibold">
                      {c.passRate === null ? '—' : `${(100 * c.passRate).toFixed(0)}%`}
                    </div>
                    <div className="text-slate-600">{c.detail ?? fmtReward(c.meanReward)}</div>
                    {c.note}
                  </td>
                ) : (
                  <td key={d} className="min-w-12 rounded bg-slate-50" />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
