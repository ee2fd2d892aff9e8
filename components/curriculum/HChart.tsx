'use client';
// h of each environment over the run: a step line per env, episode index on x.
// Envs often share the same h, so each line is nudged up or down by a small fixed offset
// (at most ±0.2) to keep every line visible; the tooltip shows the real h.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_MARGIN, EPISODE_X_AXIS } from './episode-axis';
import type { EnvId } from '@/server/engine/types';
import { ENV_COLORS } from './colors';

type Row = { episode: number } & Partial<Record<EnvId, number>>;

const plotKey = (env: EnvId) => `${env}__plot`;

export function HChart({ timeline, envs, playable }: { timeline: Row[]; envs: EnvId[]; playable: EnvId[] }) {
  const step = envs.length > 1 ? Math.min(0.06, 0.4 / (envs.length - 1)) : 0;
  const offset = (i: number) => (i - (envs.length - 1) / 2) * step;
  const data = timeline.map((row) => {
    const out: Record<string, number> = { ...(row as Record<string, number>) };
    envs.forEach((env, i) => {
      out[plotKey(env)] = (row[env] ?? 0) + offset(i);
    });
    return out;
  });
  const maxH = Math.max(1, ...timeline.flatMap((row) => envs.map((e) => row[e] ?? 0)));
  const label = (env: EnvId) => (playable.includes(env) ? env : `${env} (not playable yet)`);
  return (
    <div className="h-72 w-full" data-testid="h-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis {...EPISODE_X_AXIS} />
          <YAxis
            domain={[-0.5, maxH + 1]}
            ticks={Array.from({ length: maxH + 2 }, (_, i) => i)}
            allowDecimals={false}
            tick={{ fontSize: 11, fill: '#64748b' }}
            label={{ value: 'h', angle: 0, position: 'insideLeft', offset: 16, fontSize: 12, fill: '#64748b' }}
          />
          <Tooltip
            labelFormatter={(v) => `after episode ${v}`}
            formatter={(_v, name, item) => {
              const env = envs.find((e) => label(e) === name);
              const real = env ? (item.payload as Record<string, number>)[env] : _v;
              return [`h = ${real}`, name];
            }}
          />
          <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {envs.map((env) => (
            <Line
              key={env}
              dataKey={plotKey(env)}
              name={label(env)}
              type="stepAfter"
              stroke={ENV_COLORS[env]}
              strokeWidth={2}
              strokeOpacity={playable.includes(env) ? 1 : 0.35}
              strokeDasharray={playable.includes(env) ? undefined : '4 4'}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
