'use client';
// "Demo bundle": downloads one self-contained HTML file that replays these episodes offline
// (/api/inspector/bundle, docs/inspector.md). The hidden goal goes in only when ticked.
import { useId, useState } from 'react';
import { cx } from '@/components/ui/primitives';
import { MAX_BUNDLE_EPISODES } from '@/lib/bundle-limit';

export function BundleButton({
  query,
  label = 'demo bundle',
  className,
  count,
}: {
  /** the episodes: `ids=a,b` or list filter params such as `run=NAME` */
  query: string;
  label?: string;
  className?: string;
  /** how many episodes the query names, when known: over the limit there is no button, and a reason */
  count?: number;
}) {
  const [withGoal, setWithGoal] = useState(false);
  const boxId = useId();
  if (count !== undefined && count > MAX_BUNDLE_EPISODES)
    return (
      <span className={cx('text-xs text-slate-500', className)} data-testid="bundle">
        a demo bundle holds at most {MAX_BUNDLE_EPISODES} episodes (this has {count}): use{' '}
        <code>npm run episodes:bundle -- --filter …</code> on a part of it
      </span>
    );
  const href = `/api/inspector/bundle?${query}${withGoal ? '&withGoal=1' : ''}`;
  return (
    <span className={cx('inline-flex items-center gap-2 text-xs', className)} data-testid="bundle">
      <a
        href={href}
        download
        className="rounded-md border border-slate-300 bg-white px-2 py-1 font-medium text-slate-700 hover:bg-slate-50"
        title="One HTML file that replays the episodes offline, for sending"
        data-testid="bundle-download"
      >
        ⤓ {label}
      </a>
      <label htmlFor={boxId} className="flex items-center gap-1 text-slate-600">
        <input
          id={boxId}
          type="checkbox"
          checked={withGoal}
          onChange={(e) => setWithGoal(e.target.checked)}
          data-testid="bundle-with-goal"
        />
        with hidden goal
      </label>
    </span>
  );
}
