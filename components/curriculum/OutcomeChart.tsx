'use client';
// Pass rate and mean reward over the run's stored episodes (slices in order), beside h.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtFixed } from '@/lib/format';
import { CHART_MARGIN, EPISODE_X_AXIS } from './episode-axis';

export function OutcomeChart({ points }: { points: Array<{ episode: number; passRate: number; meanReward: number }> }) {
  return (
    <div className="h-60 w-full" data-testid="outcome-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis {...EPISODE_X_AXIS} />
          <YAxis domain={[-1, 1]} ticks={[-1, -0.5, 0, 0.5, 1]} tick={{ fontSize: 11, fill: '#64748b' }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? fmtFixed(v) : v)} />
          <Legend verticalAlign="top" height={24} />
          <Line dataKey="passRate" name="pass rate" stroke="#059669" dot={false} isAnimationActive={false} />
          <Line dataKey="meanReward" name="mean reward" stroke="#7c3aed" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
