'use client';
// Charts over the current filter: pass rate and mean reward per env × d (heatmap), reward
// components over d, and how many turns and tool calls episodes take.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChartsData } from '@/server/episodes/queries/list';
import { fmtFixed, fmtReward } from '@/lib/format';
import { Heatmap } from './Heatmap';

function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <section className="min-w-0 rounded-md border border-slate-200 p-3" data-testid={testId}>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {children}
    </section>
  );
}

const fmt = (v: unknown) => (typeof v === 'number' ? fmtFixed(v) : String(v));

export function EpisodeCharts({ data }: { data: ChartsData }) {
  if (data.heatmap.length === 0)
    return <p className="p-4 text-sm text-slate-500">No finished episodes match: nothing to chart.</p>;
  return (
    <div className="grid gap-3 p-4 xl:grid-cols-2" data-testid="episode-charts">
      <Panel title="Pass rate per env × d (cell: pass rate, mean reward, episodes)" testId="chart-heatmap">
        <Heatmap
          cells={data.heatmap.map((c) => ({
            ...c,
            title: `${c.envId} d=${c.d}: ${c.n} episodes, pass ${(100 * c.passRate).toFixed(0)}%, mean reward ${fmtReward(c.meanReward)}`,
          }))}
        />
      </Panel>
      <Panel title="Mean reward components over d" testId="chart-components">
        <div className="h-56">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data.componentsByD} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
              <XAxis dataKey="d" tick={{ fontSize: 11 }} />
              <YAxis domain={[-1, 1]} tick={{ fontSize: 11 }} />
              <Tooltip formatter={fmt} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Line dataKey="total" stroke="#0f172a" strokeWidth={2} dot={false} isAnimationActive={false} />
              <Line dataKey="rTask" name="r_task" stroke="#0284c7" dot={false} isAnimationActive={false} />
              <Line dataKey="rEff" name="r_eff" stroke="#10b981" dot={false} isAnimationActive={false} />
              <Line dataKey="rHall" name="r_hall" stroke="#e11d48" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </Panel>
      <Panel title="Turns per episode" testId="chart-turns">
        <Histogram data={data.turns} color="#6366f1" />
      </Panel>
      <Panel title="Tool calls per episode" testId="chart-tools">
        <Histogram data={data.toolCalls} color="#f59e0b" />
      </Panel>
    </div>
  );
}

function Histogram({ data, color }: { data: Array<{ value: number; n: number }>; color: string }) {
  return (
    <div className="h-44">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="value" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip formatter={(v) => [String(v), 'episodes']} />
          <Bar dataKey="n" fill={color} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
