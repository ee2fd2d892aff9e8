'use client';
// A run over train_step: mean reward, pass rate and effective prompt ratio; and the effective
// prompt ratio per env or per d. A run without train steps is one point.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { pct, SERIES_COLORS } from '@/components/charts/format';
import type { RunSummary } from '@/server/inspector/run-view';

const stepLabel = (s: number | null) => (s === null ? 'no step' : String(s));

export function StepCurves({ summary }: { summary: RunSummary }) {
  const data = summary.steps.map((s) => ({
    step: stepLabel(s.trainStep),
    'mean reward': s.meanReward,
    'pass rate': s.passRate,
    'effective prompt ratio': s.effectiveRatio,
  }));
  return (
    <div className="h-64 w-full" data-testid="step-curves">
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 5, right: 10, bottom: 10, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="step" label={{ value: 'train step', position: 'insideBottomRight', offset: -4 }} />
          <YAxis yAxisId="share" domain={[0, 1]} tickFormatter={pct} />
          <YAxis yAxisId="reward" orientation="right" domain={[-1, 1]} />
          <Tooltip formatter={(v, name) => (name === 'mean reward' && typeof v === 'number' ? v.toFixed(3) : pct(v))} />
          <Legend />
          <Line yAxisId="reward" dataKey="mean reward" stroke="#334155" dot isAnimationActive={false} />
          <Line yAxisId="share" dataKey="pass rate" stroke="#059669" dot isAnimationActive={false} />
          <Line yAxisId="share" dataKey="effective prompt ratio" stroke="#7c3aed" dot isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Effective prompt ratio over train_step, one line per env (or per d): groups pooled over the other axis. */
export function RatioCurves({ summary, by }: { summary: RunSummary; by: 'env' | 'd' }) {
  const lineOf = (c: RunSummary['ratios'][number]) => (by === 'env' ? c.env : `d ${c.d}`);
  const lines = [...new Set(summary.ratios.map(lineOf))];
  const steps = [...new Set(summary.ratios.map((c) => c.trainStep))].sort((a, b) => (a ?? -1) - (b ?? -1));
  const data = steps.map((step) => {
    const row: Record<string, string | number | null> = { step: stepLabel(step) };
    for (const line of lines) {
      const cells = summary.ratios.filter((c) => c.trainStep === step && lineOf(c) === line);
      const groups = cells.reduce((a, c) => a + c.groups, 0);
      row[line] = groups ? cells.reduce((a, c) => a + c.effective, 0) / groups : null;
    }
    return row;
  });
  return (
    <div className="h-64 w-full" data-testid="ratio-curves">
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 5, right: 10, bottom: 10, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="step" label={{ value: 'train step', position: 'insideBottomRight', offset: -4 }} />
          <YAxis domain={[0, 1]} tickFormatter={pct} />
          <Tooltip formatter={pct} />
          <Legend />
          {lines.map((l, i) => (
            <Line
              key={l}
              dataKey={l}
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
