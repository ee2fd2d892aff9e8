// The twelve difficulty axes: name, meaning, formula and value (overrides marked).
import type { AxisRow } from '@/server/episodes/axes';
import { Badge, cx } from '@/components/ui/primitives';
import { fmtNumber } from '@/lib/format';

export function AxisTable({
  rows,
  dense = false,
  pending = false,
}: {
  rows: AxisRow[];
  dense?: boolean;
  pending?: boolean;
}) {
  return (
    <table className={cx('w-full text-left text-sm', pending && 'opacity-60')} data-testid="axis-table">
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">axis</th>
          <th className="py-1 pr-3 font-medium">meaning</th>
          {!dense && <th className="py-1 pr-3 font-medium">formula</th>}
          <th className="py-1 text-right font-medium">value</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.name} data-axis={r.name}>
            <td className="py-1 pr-3 font-mono text-xs text-slate-800">{r.name}</td>
            <td className="py-1 pr-3 text-slate-600">{r.label}</td>
            {!dense && <td className="py-1 pr-3 font-mono text-xs text-slate-500">{r.formula}</td>}
            <td className="py-1 text-right tabular-nums">
              {r.overridden && (
                <Badge tone="amber" title={`formula gives ${fmtNumber(r.formulaValue, r.integer)}`} className="mr-1.5">
                  override
                </Badge>
              )}
              <span className="font-medium text-slate-900" data-testid={`axis-value-${r.name}`}>
                {fmtNumber(r.value, r.integer)}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
