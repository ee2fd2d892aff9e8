// Groups of a run in a table, each linked to its group view.
import Link from 'next/link';
import { fmtReward } from '@/lib/format';
import type { GroupRow } from '@/server/inspector/run-view';
import type { ZeroVarianceKind } from '@/server/inspector/groups';
import { groupViewUrl } from './urls';

export const KIND_LABELS: Record<ZeroVarianceKind, string> = {
  all_pass: 'all pass',
  all_fail_same_way: 'all fail the same way',
  same_termination: 'same termination',
  other: 'other (equal rewards)',
};

export function GroupTable({ run, rows, testId = 'group-table' }: { run: string; rows: GroupRow[]; testId?: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm tabular-nums" data-testid={testId}>
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="px-3 py-1.5 font-medium">group</th>
            <th className="px-3 py-1.5 font-medium">step</th>
            <th className="px-3 py-1.5 font-medium">G</th>
            <th className="px-3 py-1.5 font-medium">passed</th>
            <th className="px-3 py-1.5 font-medium">mean</th>
            <th className="px-3 py-1.5 font-medium">std</th>
            <th className="px-3 py-1.5 font-medium">signal</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((g) => (
            <tr key={g.key}>
              <td className="px-3 py-1">
                <Link href={groupViewUrl(run, g.slug)} className="text-sky-700 underline" data-testid="group-link">
                  {g.slug.startsWith('g:') ? `${g.slug.slice(2)} · ` : ''}
                  {g.env} d {g.d} seed {g.seed}
                </Link>
              </td>
              <td className="px-3 py-1">{g.trainStep ?? '—'}</td>
              <td className="px-3 py-1">{g.size}</td>
              <td className="px-3 py-1">{g.passed}</td>
              <td className="px-3 py-1">{fmtReward(g.mean)}</td>
              <td className="px-3 py-1">{g.std.toFixed(3)}</td>
              <td className="px-3 py-1">
                {g.kind ? (
                  <span className="text-rose-700">none: {KIND_LABELS[g.kind]}</span>
                ) : (
                  <span className="text-emerald-700">yes</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
