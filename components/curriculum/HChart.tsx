'use client';
// h of each environment over the run: a step line per env, episode index on x.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EnvId } from '@/server/engine/types';
import { ENV_COLORS } from './colors';

export function HChart({
  timeline,
  envs,
  playable,
}: {
  timeline: Array<{ episode: number } & Partial<Record<EnvId, number>>>;
  envs: EnvId[];
  playable: EnvId[];
}) {
  const maxH = Math.max(1, ...timeline.flatMap((row) => envs.map((e) => row[e] ?? 0)));
  return (
    <div className="h-72 w-full" data-testid="h-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={timeline} margin={{ top: 12, right: 24, bottom: 18, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis
            dataKey="episode"
            type="number"
            domain={[0, 'dataMax']}
            allowDecimals={false}
            tick={{ fontSize: 11, fill: '#64748b' }}
            label={{ value: 'episode', position: 'insideBottom', offset: -10, fontSize: 11, fill: '#64748b' }}
          />
          <YAxis
            domain={[0, maxH + 1]}
            allowDecimals={false}
            tick={{ fontSize: 11, fill: '#64748b' }}
            label={{ value: 'h', angle: 0, position: 'insideLeft', offset: 16, fontSize: 12, fill: '#64748b' }}
          />
          <Tooltip labelFormatter={(v) => `after episode ${v}`} formatter={(v, name) => [`h = ${v}`, name]} />
          <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
          {envs.map((env) => (
            <Line
              key={env}
              dataKey={env}
              name={playable.includes(env) ? env : `${env} (not playable yet)`}
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
