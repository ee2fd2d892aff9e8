'use client';
// Reward distribution per env × d of a run: rollouts per reward bin of 0.1, passed (green)
// and failed (red) stacked, so where passing starts is visible; the dashed line marks the bin
// holding the pass threshold's value (a pass is r_task ≥ the threshold).
import { Bar, BarChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { HIST_BINS, type RunSummary } from '@/server/inspector/run-view';

const binLabel = (i: number) => (-1 + i * 0.1).toFixed(1);

export function RewardHistograms({
  histograms,
  passThreshold,
}: {
  histograms: RunSummary['histograms'];
  /** the engine's PASS_THRESHOLD (r_task), marked on the reward axis */
  passThreshold: number;
}) {
  return (
    <div className="grid grid-cols-[repeat(auto-fill,minmax(200px,1fr))] gap-3" data-testid="reward-histograms">
      {histograms.map((h) => {
        const data = Array.from({ length: HIST_BINS }, (_, i) => ({
          bin: binLabel(i),
          passed: h.pass[i],
          failed: h.fail[i],
        }));
        const n = h.pass.reduce((a, x) => a + x, 0) + h.fail.reduce((a, x) => a + x, 0);
        return (
          <figure key={`${h.env}|${h.d}`} className="text-xs" data-testid={`hist-${h.env}-${h.d}`}>
            <figcaption className="font-medium text-slate-700">
              {h.env} d {h.d} <span className="font-normal text-slate-500">({n} rollouts)</span>
            </figcaption>
            <div className="h-28">
              <ResponsiveContainer>
                <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -28 }} barCategoryGap={0}>
                  <XAxis dataKey="bin" interval={4} tick={{ fontSize: 9 }} />
                  <YAxis allowDecimals={false} tick={{ fontSize: 9 }} />
                  <Tooltip labelFormatter={(b) => `reward ${b} to ${(Number(b) + 0.1).toFixed(1)}`} />
                  <ReferenceLine
                    x={binLabel(Math.floor((passThreshold + 1) * 10))}
                    stroke="#0f172a"
                    strokeDasharray="3 3"
                  />
                  <Bar dataKey="failed" stackId="r" fill="#fb7185" isAnimationActive={false} />
                  <Bar dataKey="passed" stackId="r" fill="#34d399" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </figure>
        );
      })}
    </div>
  );
}
