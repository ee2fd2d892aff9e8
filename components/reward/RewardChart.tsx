'use client';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { RewardBreakdown } from '@/server/engine/types';
import { fmtFixed } from '@/lib/format';

export function RewardChart({ breakdown }: { breakdown: RewardBreakdown }) {
  const w = breakdown.weights;
  const data = breakdown.hardFail
    ? [{ name: 'total', value: breakdown.total }]
    : [
        { name: `task ×${w.task}`, value: w.task * breakdown.rTask },
        { name: `eff ×${w.eff}`, value: w.eff * breakdown.rEff },
        { name: `hall ×${w.hall}`, value: w.hall * breakdown.rHall },
        { name: 'total', value: breakdown.total },
      ];
  return (
    <div className="h-56 w-full" data-testid="reward-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 18, right: 12, bottom: 4, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="name" tick={{ fontSize: 12, fill: '#475569' }} />
          <YAxis domain={[-1, 1]} ticks={[-1, -0.5, 0, 0.5, 1]} tick={{ fontSize: 11, fill: '#64748b' }} />
          <ReferenceLine y={0} stroke="#94a3b8" />
          <Tooltip formatter={(v) => (typeof v === 'number' ? fmtFixed(v) : String(v))} />
          <Bar dataKey="value" isAnimationActive={false} radius={[3, 3, 0, 0]}>
            {data.map((d) => (
              <Cell
                key={d.name}
                fill={
                  d.name === 'total' ? (d.value >= 0 ? '#0f172a' : '#9f1239') : d.value >= 0 ? '#10b981' : '#f43f5e'
                }
              />
            ))}
            <LabelList
              dataKey="value"
              position="top"
              formatter={(v: unknown) => (typeof v === 'number' ? fmtFixed(v) : '')}
              style={{ fontSize: 11, fill: '#334155' }}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
