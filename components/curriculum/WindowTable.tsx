// Per environment: the window [l, h], progress toward the next check at h, recent pass rate.
import type { EnvSummary } from '@/server/engine/curriculum';
import type { EnvId } from '@/server/engine/types';
import { Badge } from '@/components/ui/primitives';
import { pct } from '@/components/charts/format';
import { ENV_COLORS } from './colors';

export function WindowTable({ envs, playable }: { envs: EnvSummary[]; playable: EnvId[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="window-table">
        <thead className="border-b border-slate-200 text-xs text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">env</th>
            <th className="px-2 py-2 font-medium" title="d is drawn uniformly from l..h">
              window [l, h]
            </th>
            <th
              className="px-2 py-2 font-medium"
              title="episodes played at d = h since the last check; a check happens at 32"
            >
              counted at h
            </th>
            <th
              className="px-2 py-2 text-right font-medium"
              title="of the counted episodes, how many passed (90% needed)"
            >
              passed at h
            </th>
            <th className="px-2 py-2 text-right font-medium" title="pass share over this env's last 50 episodes, any d">
              recent pass rate
            </th>
            <th className="px-2 py-2 text-right font-medium">played</th>
            <th className="px-4 py-2 font-medium">last check</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {envs.map((e) => {
            const canPlay = playable.includes(e.envId);
            return (
              <tr key={e.envId} data-testid="window-row" data-env={e.envId} className={canPlay ? '' : 'text-slate-400'}>
                <td className="px-4 py-2 font-medium">
                  <span
                    className="mr-2 inline-block h-2.5 w-2.5 rounded-full"
                    style={{ background: ENV_COLORS[e.envId] }}
                  />
                  {e.envId}
                  {!canPlay && (
                    <Badge tone="amber" className="ml-2" title="the engine does not implement this environment yet">
                      not playable yet
                    </Badge>
                  )}
                </td>
                <td className="px-2 py-2 font-mono tabular-nums" data-testid="window-range">
                  [{e.l}, {e.h}]
                </td>
                <td className="px-2 py-2">
                  <div className="flex items-center gap-2">
                    <div className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-100">
                      <div className="h-full bg-slate-700" style={{ width: `${(100 * e.counted) / e.batch}%` }} />
                    </div>
                    <span className="tabular-nums text-xs text-slate-600" data-testid="window-counted">
                      {e.counted} / {e.batch}
                    </span>
                  </div>
                </td>
                <td className="px-2 py-2 text-right tabular-nums">
                  {e.passed}
                  {e.counted > 0 && <span className="text-xs text-slate-500"> ({pct(e.passed / e.counted)})</span>}
                </td>
                <td className="px-2 py-2 text-right tabular-nums" data-testid="window-recent">
                  {pct(e.recentPassRate)}
                  {e.recentN > 0 && <span className="text-xs text-slate-500"> of {e.recentN}</span>}
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{e.played}</td>
                <td className="px-4 py-2 text-xs text-slate-600">
                  {e.lastCheck ? (
                    <>
                      #{e.lastCheck.episode}: {e.lastCheck.passed}/{e.lastCheck.counted} at h = {e.lastCheck.h}{' '}
                      {e.lastCheck.moved ? <Badge tone="green">h + 1</Badge> : <Badge tone="slate">stayed</Badge>}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
