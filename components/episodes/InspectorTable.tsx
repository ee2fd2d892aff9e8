'use client';
// The episode list: sortable columns, a checkbox per row for bulk actions.
import type { EpisodeListRow } from '@/server/episodes/queries/list';
import type { SortColumn } from '@/server/inspector/filters';
import { cx } from '@/components/ui/primitives';
import { differsPhrase } from '@/components/reward/part-labels';
import { fmtDateTime, fmtReward, fmtTermination } from '@/lib/format';
import { EpisodeLink, PlayerCell, ResultBadge } from './EpisodeCells';

// `wide` columns are hidden below 1024 px so the replay link stays on screen at 800 px.
const COLUMNS: Array<{ key: SortColumn; label: string; right?: boolean; wide?: boolean }> = [
  { key: 'envId', label: 'env' },
  { key: 'd', label: 'd' },
  { key: 'seed', label: 'seed' },
  { key: 'reward', label: 'reward', right: true },
  { key: 'isCorrect', label: 'result' },
  { key: 'terminationReason', label: 'termination', wide: true },
  { key: 'turn', label: 'turns', right: true },
  { key: 'toolCalls', label: 'tools', right: true, wide: true },
  { key: 'player', label: 'player' },
  { key: 'createdAt', label: 'created', wide: true },
];

const WIDE = 'hidden lg:table-cell';

export function InspectorTable({
  rows,
  sort,
  dir,
  onSort,
  selected,
  onSelect,
  listParams,
}: {
  /** an active episode's seed is null until it ends or is revealed (server/inspector/spoiler.ts) */
  rows: Array<Omit<EpisodeListRow, 'seed'> & { seed: number | null }>;
  sort: SortColumn;
  dir: 'asc' | 'desc';
  onSort: (col: SortColumn) => void;
  selected: Set<string>;
  onSelect: (ids: string[], on: boolean) => void;
  /** the list's URL params, carried to the replay so [ and ] walk this list */
  listParams: string;
}) {
  const allOn = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const ctx = listParams ? `?list=${encodeURIComponent(listParams)}` : '';
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="episode-table">
        <thead className="border-b border-slate-200 text-xs text-slate-500">
          <tr>
            <th className="px-3 py-2">
              <input
                type="checkbox"
                aria-label="select all on this page"
                checked={allOn}
                onChange={(e) =>
                  onSelect(
                    rows.map((r) => r.id),
                    e.target.checked,
                  )
                }
              />
            </th>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                className={cx('px-2 py-2 font-medium', c.right && 'text-right', c.wide && WIDE)}
                aria-sort={sort === c.key ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button
                  type="button"
                  className="hover:text-slate-900"
                  onClick={() => onSort(c.key)}
                  data-testid={`sort-${c.key}`}
                >
                  {c.label}
                  {sort === c.key ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
            <th className="px-3 py-2" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((e) => (
            <tr
              key={e.id}
              className={cx('hover:bg-slate-50', selected.has(e.id) && 'bg-sky-50')}
              data-testid="episode-row"
              data-episode-id={e.id}
            >
              <td className="px-3 py-1.5">
                <input
                  type="checkbox"
                  aria-label={`select episode ${e.id}`}
                  checked={selected.has(e.id)}
                  onChange={(ev) => onSelect([e.id], ev.target.checked)}
                />
              </td>
              <td className="px-2 py-1.5 font-medium">{e.envId}</td>
              <td className="px-2 py-1.5 tabular-nums">{e.d}</td>
              <td
                className="px-2 py-1.5 font-mono text-xs"
                title={e.seed === null ? 'withheld while it is played' : undefined}
              >
                {e.seed ?? '—'}
              </td>
              <td className="px-2 py-1.5 text-right tabular-nums">
                {e.rescoredReward !== null && Math.abs(e.rescoredReward - (e.reward ?? 0)) > 1e-9 && (
                  <span className="text-[11px] text-slate-500">recorded </span>
                )}
                {fmtReward(e.reward)}
                {e.rescoredReward !== null && Math.abs(e.rescoredReward - (e.reward ?? 0)) > 1e-9 && (
                  <span
                    className="block text-xs text-violet-700"
                    title="the reward as recorded (above) and as this engine scores the same turns"
                    data-testid="list-rescored"
                  >
                    this engine {fmtReward(e.rescoredReward)}
                    {e.rescoredDiffers && (
                      <span className="block text-[11px] text-violet-600">
                        {differsPhrase(e.rescoredDiffers.split(','))}
                      </span>
                    )}
                  </span>
                )}
              </td>
              <td className="px-2 py-1.5">
                <ResultBadge status={e.status} isCorrect={e.isCorrect} infra={e.infra} />
              </td>
              <td className={cx('px-2 py-1.5 text-slate-600', WIDE)}>{fmtTermination(e.terminationReason)}</td>
              <td className="px-2 py-1.5 text-right tabular-nums">{e.turn}</td>
              <td className={cx('px-2 py-1.5 text-right tabular-nums', WIDE)}>{e.toolCalls}</td>
              <td
                className="max-w-56 truncate px-2 py-1.5 text-slate-600"
                title={e.runLabel ? `run ${e.runLabel}` : undefined}
              >
                <PlayerCell player={e.player} />
                {e.origin !== 'engine' && (
                  <span className="ml-1 text-xs text-slate-400">({e.origin.replace('import:', 'imported ')})</span>
                )}
              </td>
              <td className={cx('whitespace-nowrap px-2 py-1.5 text-xs text-slate-500', WIDE)}>
                {fmtDateTime(e.createdAt)}
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right">
                <EpisodeLink id={e.id} status={e.status} query={ctx} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
