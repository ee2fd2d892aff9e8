'use client';
// Actions on the selected episodes and on the whole filtered set.
import Link from 'next/link';
import { Button } from '@/components/ui/primitives';

export function BulkBar({
  selected,
  total,
  capped,
  listParams,
  onDelete,
  onClear,
  deleting,
}: {
  selected: string[];
  /** null while the list loads (a "0 episodes match" beside "Loading…" read as an empty store) */
  total: number | null;
  capped: boolean;
  listParams: string;
  onDelete: () => void;
  onClear: () => void;
  deleting: boolean;
}) {
  const n = selected.length;
  const ids = selected.join(',');
  const q = listParams ? `${listParams}&` : '';
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm"
      data-testid="bulk-bar"
    >
      <span className="text-slate-600">
        {n > 0
          ? `${n} selected`
          : total === null
            ? 'counting episodes…'
            : `${capped ? `${total.toLocaleString()}+` : total.toLocaleString()} episode${total === 1 ? '' : 's'} match`}
      </span>
      {n === 2 && (
        <Link
          href={`/episodes/compare?a=${selected[0]}&b=${selected[1]}`}
          className="rounded-md bg-slate-900 px-2 py-1 text-xs font-medium text-white"
          data-testid="compare-selected"
        >
          Compare the two
        </Link>
      )}
      {n > 0 && (
        <>
          <a
            href={`/api/inspector/export?ids=${ids}`}
            className="rounded-md px-2 py-1 text-xs font-medium ring-1 ring-slate-300 hover:bg-white"
            download
          >
            Export selected (JSONL)
          </a>
          <Button size="sm" variant="ghost" onClick={onDelete} disabled={deleting} className="text-rose-700">
            {deleting ? 'Deleting…' : `Delete ${n}`}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </>
      )}
      <span className="ml-auto flex gap-2">
        <a
          href={`/api/inspector/export?${q}`}
          className="rounded-md px-2 py-1 text-xs font-medium ring-1 ring-slate-300 hover:bg-white"
          data-testid="export-filtered"
          download
        >
          Export all matching (JSONL)
        </a>
        <a
          href={`/api/inspector/export?${q}kind=chat`}
          className="rounded-md px-2 py-1 text-xs font-medium ring-1 ring-slate-300 hover:bg-white"
          download
        >
          … as chat messages (SFT)
        </a>
      </span>
    </div>
  );
}
