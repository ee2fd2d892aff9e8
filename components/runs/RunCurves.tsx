'use client';
// Pass rate against d, one line per environment (recharts).
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { pct, SERIES_COLORS } from '@/components/charts/format';
import type { RunCellStats } from '@/server/models/runs';

export function RunCurves({ stats }: { stats: RunCellStats[] }) {
  const envs = [...new Set(stats.map((s) => s.envId))];
  const ds = [...new Set(stats.map((s) => s.d))].sort((a, b) => a - b);
  const data = ds.map((d) =>
    Object.fromEntries([
      ['d', d],
      ...envs.map((e) => [e, stats.find((s) => s.envId === e && s.d === d)?.passRate ?? null]),
    ]),
  );
  return (
    <div className="h-64 w-full" data-testid="run-curves">
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 5, right: 10, bottom: 10, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="d" label={{ value: 'difficulty d', position: 'insideBottomRight', offset: -4 }} />
          <YAxis
            domain={[0, 1]}
            tickFormatter={pct}
            label={{ value: 'pass rate', angle: -90, position: 'insideLeft' }}
          />
          <Tooltip formatter={pct} />
          <Legend />
          {envs.map((e, i) => (
            <Line
              key={e}
              type="linear"
              dataKey={e}
              stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
              connectNulls
              dot
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
